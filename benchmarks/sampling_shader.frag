#version 450
// The sampling grid benchmark's fragment shader: a coordinate per pixel, 16 taps of a
// blur with implicit LOD from the quad's derivatives, explicit LOD, gradients, a 3D
// texture and an array layer per row (the default 4x4 textures with their mip chains).
layout(location = 0) out vec4 color;
layout(binding = 0) uniform sampler2D tex;
layout(binding = 1) uniform sampler3D volume;
layout(binding = 2) uniform sampler2DArray layers;

void main() {
    vec2 uv = gl_FragCoord.xy / 64.0;
    vec4 sum = vec4(0.0);
    for (int i = 0; i < 16; i++) {
        vec2 offset = vec2(float(i % 4) - 1.5, float(i / 4) - 1.5) / 32.0;
        sum += texture(tex, uv * (1.0 + 0.1 * float(i)) + offset);
    }
    sum += textureLod(tex, uv, uv.x * 2.0);
    sum += textureGrad(tex, uv, vec2(uv.y / 8.0, 0.0), vec2(0.0, uv.x / 8.0));
    sum += texture(volume, vec3(uv, uv.x * uv.y));
    sum += texture(layers, vec3(uv, floor(gl_FragCoord.y / 32.0)));
    color = sum / 20.0;
}
