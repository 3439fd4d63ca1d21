"""A SPIR-V interpreter: runs an entry point of a Shader module with logical addressing,
every value exact for its type (fp32 as numpy float32, integers wrapping at their width,
what the spec leaves undefined shown as `undef`).

- `shader` reads the module once: types with their layouts, constants (specialised),
  names, variables, functions and entry points.
- `types`, `ops`, `glsl450`, `memory`, `images`, `subgroup`: values and what the
  instructions do to them, each operation written once.
- `invocation` executes one instruction per step and records it (`StepRecord`);
  `group` runs the invocations that need each other (a fragment quad, a compute
  workgroup) in lockstep, answering derivatives, barriers and subgroup operations;
  `debugger` steps one of them (over, out, back, to, breakpoints); `lanes` runs a whole
  grid of fragments together, values as arrays over lanes, with the same handlers.
- `interface` fills variables from an inputs JSON and gives outputs and buffers as JSON;
  `layout` lays values out in bytes as Offset/ArrayStride/MatrixStride/RowMajor say.

Not supported (the run stops naming the instruction and its word offset): ray tracing
and ray queries, physical pointers (OpPtrAccessChain, OpConvertUToPtr…), untyped
pointers, non-GLSL extended instruction sets, saturating integer dot products, a few
vendor image instructions. Cube-map sampling picks the face without seamless filtering.
"""
