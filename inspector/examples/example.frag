#version 450
// The example module spvinspect opens when it is started without a file.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(binding = 0) uniform sampler2D albedo;
layout(binding = 1) uniform Params { vec4 tint; int mode; int steps; float threshold; };

vec4 blur(vec2 at) {
    vec4 sum = vec4(0.0);
    for (int i = -steps; i <= steps; i++) {
        sum += texture(albedo, at + vec2(float(i) / 512.0, 0.0));
    }
    return sum / float(2 * steps + 1);
}

void main() {
    vec4 base = texture(albedo, uv);
    if (base.a < threshold) {
        discard;
    }
    switch (mode) {
        case 0: color = base * tint; break;
        case 1: color = blur(uv); break;
        case 2: color = vec4(vec3(dot(base.rgb, vec3(0.299, 0.587, 0.114))), base.a); break;
        default: color = base; break;
    }
}
