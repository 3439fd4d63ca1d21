#version 450
// The grid benchmark's fragment shader: per-pixel loops of different lengths, branches,
// a discard, derivatives, function calls and GLSL.std.450 functions, about 300
// instructions as glslang compiles it without optimisation.
layout(location = 0) out vec4 color;

float ring(vec2 p, float r, float w) {
    float d = abs(length(p) - r);
    return 1.0 - smoothstep(0.0, w, d);
}

vec3 palette(float t) {
    vec3 a = vec3(0.5, 0.5, 0.5);
    vec3 b = vec3(0.5, 0.5, 0.5);
    vec3 c = vec3(1.0, 1.0, 1.0);
    vec3 d = vec3(0.0, 0.33, 0.67);
    return a + b * cos(6.28318 * (c * t + d));
}

void main() {
    vec2 uv = gl_FragCoord.xy / 64.0 - 0.5;
    if (length(uv) > 0.7) {
        discard;
    }
    vec2 z = uv * 2.5;
    int n = 0;
    for (int i = 0; i < 24; i++) {
        z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + vec2(-0.8, 0.156);
        if (dot(z, z) > 4.0) {
            break;
        }
        n++;
    }
    float t = float(n) / 24.0;
    vec3 col = palette(t);
    if (n % 3 == 0) {
        col *= 0.8;
    } else if (n % 3 == 1) {
        col = mix(col, vec3(1.0, 0.9, 0.7), 0.25);
    } else {
        col = col.bgr;
    }
    float r = ring(uv, 0.3, fwidth(uv.x) * 4.0);
    col = mix(col, vec3(1.0), r);
    float edge = clamp(abs(dFdx(t)) + abs(dFdy(t)), 0.0, 1.0);
    col = max(col - edge * 0.5, vec3(0.0));
    float vignette = 1.0 - 0.6 * dot(uv, uv);
    col *= vignette * vignette;
    color = vec4(pow(col, vec3(1.0 / 2.2)), 1.0);
}
