"""GLSL shaders the tests compile themselves, so differential tests run without a corpus."""

from __future__ import annotations

SHADERS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    # name: (stage, source, extra glslangValidator flags)
    "loops_and_switch": (
        "frag",
        """#version 450
layout(location = 0) in vec4 vin;
layout(location = 0) out vec4 fout;
layout(binding = 0) uniform U { vec4 u[16]; int n; };
void main() {
    vec4 r = vin;
    for (int i = 0; i < n; i++) {
        if (r.x > 2.0) { r += u[i & 15] * 0.25; if (r.y < 0.0) break; }
        else if (r.z == 1.5) continue;
        else r = sin(r);
    }
    switch (n) { case 1: r.y += 1.0; case 2: r.z -= 2.0; break; default: r.w *= 0.5; }
    if (r.w < 0.0) discard;
    fout = r;
}""",
        (),
    ),
    "compute_64bit": (
        "comp",
        """#version 450
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 8, local_size_y = 4) in;
layout(std430, binding = 0) buffer B { int64_t a[]; };
layout(std430, binding = 1) buffer D { double d[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int64_t big = 0x7fffffffffffffffL;
    uint64_t ubig = 0xffffffffffffffffUL;
    a[i] = a[i] * -3L + big - int64_t(ubig >> 3);
    d[i] = d[i] * 0.1LF + 1.0e300LF - 5e-324LF;
    switch (int(a[i] & 3)) { case 0: d[i] = 0.0; break; case -1: d[i] = -1.0; break; }
}""",
        (),
    ),
    "half_and_small_ints": (
        "comp",
        """#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { float16_t h[]; int16_t s[]; };
layout(std430, binding = 1) buffer C { int8_t c[]; uint8_t uc[]; };
void main() {
    h[0] = h[1] * float16_t(0.1) + float16_t(65504.0) - float16_t(0.0000001);
    s[0] = s[1] - int16_t(-32768) + int16_t(0x7fff);
    c[0] = c[1] + int8_t(-128);
    uc[0] = uc[1] | uint8_t(255);
}""",
        (),
    ),
    "vertex_builtins": (
        "vert",
        """#version 450
layout(location = 0) in vec3 pos;
layout(location = 0) out vec2 uv;
layout(push_constant) uniform P { mat4 mvp; float inf_guard; };
void main() {
    uv = vec2(gl_VertexIndex & 1, gl_InstanceIndex) * 0.5;
    gl_Position = mvp * vec4(pos, 1.0) + vec4(1.0 / 0.0, -1.0 / 0.0, 1e-40, 3.4e38);
    gl_PointSize = 1.0;
}""",
        (),
    ),
    "debug_info_strings": (
        "frag",
        """#version 450
// a "quoted" comment with a back\\slash and unicode: héllo
layout(location = 0) out vec4 fout;
layout(binding = 0) uniform sampler2D tex;
float helper(float x) { return x < 0.0 ? -x : sqrt(x); }
void main() { fout = texture(tex, vec2(helper(-0.5), 0.25)); }""",
        ("-g",),
    ),
    "nonsemantic_debug_info": (
        "frag",
        """#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 fout;
struct S { vec4 a; int b[3]; };
layout(binding = 0) uniform U { S s; };
void main() {
    vec4 acc = vec4(0);
    for (int i = 0; i < 3; i++) acc += s.a * float(s.b[i]);
    fout = acc * uv.x;
}""",
        ("-gV",),
    ),
    "geometry_stage": (
        "geom",
        """#version 450
layout(triangles) in;
layout(line_strip, max_vertices = 4) out;
layout(location = 0) in vec3 n[];
void main() {
    for (int i = 0; i < 3; i++) { gl_Position = gl_in[i].gl_Position + vec4(n[i], 0); EmitVertex(); }
    gl_Position = gl_in[0].gl_Position; gl_PrimitiveID = gl_PrimitiveIDIn; EmitVertex();
    EndPrimitive();
}""",
        (),
    ),
}
