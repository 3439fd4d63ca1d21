"""The image pane of a fragment shader: the grid drawn from a worker, a pixel chosen with
the cursor becomes the stepped fragment."""

from __future__ import annotations

from spvinspect.widgets.spirv_image import SpirvImage
from spvinspect.widgets.values_pane import ValuesPane

from inspector_apps import image_done, make_app

# FragColor = gl_FragCoord / 32 + vColor (inputs default to zero): a gradient of each pixel's coordinates.
BUILTINS = """OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %FragColor %gl_FragCoord %vColor
OpExecutionMode %main OriginUpperLeft
OpName %FragColor "FragColor"
OpName %gl_FragCoord "gl_FragCoord"
OpName %vColor "vColor"
OpDecorate %FragColor Location 0
OpDecorate %gl_FragCoord BuiltIn FragCoord
OpDecorate %vColor Location 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v4float = OpTypeVector %float 4
%out_ptr = OpTypePointer Output %v4float
%FragColor = OpVariable %out_ptr Output
%in_ptr = OpTypePointer Input %v4float
%gl_FragCoord = OpVariable %in_ptr Input
%vColor = OpVariable %in_ptr Input
%scale = OpConstant %float 0.03125
%main = OpFunction %void None %fn
%entry = OpLabel
%coord = OpLoad %v4float %gl_FragCoord
%colour = OpLoad %v4float %vColor
%scaled = OpVectorTimesScalar %v4float %coord %scale
%sum = OpFAdd %v4float %scaled %colour
OpStore %FragColor %sum
OpReturn
OpFunctionEnd
"""


def builtins_module() -> bytes:
    from spvinspect.codec.asm import assemble

    return assemble(BUILTINS).binary


async def test_the_grid_is_drawn_and_a_chosen_pixel_is_the_stepped_fragment() -> None:
    app = make_app(builtins_module(), "builtins.spv")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await pilot.press("9")
        image = screen.query_one(SpirvImage)
        await image_done(pilot, image)
        assert image.pixels is not None and image.pixels.shape == (32, 32, 4)
        assert image.border_title == "Image · FragColor · 32×32 fragments"
        assert image.border_subtitle == ""  # run in lanes
        # Row 0 of the widget is the bottom row: FragCoord y 31.5 there.
        assert image.pixels[0, 0].tolist() == [0.5 / 32, 31.5 / 32, 0.5 / 32, 1 / 32]
        assert image.info_text() == "pixel 0,0 stepped: 0.015625 0.015625 0.015625 0.03125"
        await pilot.press("l", "l", "l", "j", "j")
        await pilot.pause()
        assert image.info_text() == "pixel 3,2: 0.109375 0.078125 0.015625 0.03125"
        await pilot.press("enter")
        await pilot.pause()
        assert screen.execution.settings.fragment == (3, 2)
        await pilot.press("8", "f5")
        await pilot.pause()
        values = screen.query_one(ValuesPane)
        texts = [" ".join(values.row_text(row).split()) for row in range(len(values.rows))]
        assert "%FragColor float4 (0.109375, 0.078125, 0.015625, 0.03125)" in texts
        assert "%gl_FragCoord float4 (3.5, 2.5, 0.5, 1.0)" in texts
        assert image.info_text() == "pixel 3,2 stepped: 0.109375 0.078125 0.015625 0.03125"


COUNTING = """#version 450
layout(location = 0) out vec4 color;
layout(std430, binding = 0) buffer Counter { uint count; };
void main() {
    atomicAdd(count, 1u);
    color = vec4(gl_FragCoord.xy / 32.0, 0.0, 1.0);
}
"""


async def test_a_grid_the_lanes_cannot_run_is_drawn_invocation_by_invocation_and_says_why(tmp_path) -> None:
    from oracle import compile_glsl

    app = make_app(compile_glsl(COUNTING, "frag", tmp_path / "counting.spv"), "counting.spv")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("9")
        image = app.screen.query_one(SpirvImage)
        await image_done(pilot, image)
        assert image.pixels is not None and image.pixels[0, 0].tolist() == [0.5 / 32, 31.5 / 32, 0.0, 1.0]
        assert str(image.border_subtitle).startswith("run invocation by invocation: OpAtomicIAdd at word ")
