"""The interpreter's instructions, class by class, against values computed by hand."""

from __future__ import annotations

import math

import pytest

from asm_module import CONSTS, run_values


def test_integer_arithmetic_wraps_and_rounds_toward_zero():
    v = run_values("""
%add = OpIAdd %int %imax %i2
%sub = OpISub %uint %u0 %u3
%mul = OpIMul %int %imax %i2
%neg = OpSNegate %int %im7
%sdiv = OpSDiv %int %im7 %i2
%srem = OpSRem %int %i7 %i2
%smod = OpSMod %int %i7 %i2
%udiv = OpUDiv %uint %umax %u3
%umod = OpUMod %uint %umax %u31
""", CONSTS)
    assert v["add"] == -2147483647
    assert v["sub"] == 4294967293
    assert v["mul"] == -2
    assert v["neg"] == 7
    assert (v["sdiv"], v["srem"], v["smod"]) == (-3, 1, 1)
    assert v["udiv"] == 1431655765
    assert v["umod"] == 4294967295 % 31


def test_float_arithmetic_rounds_to_float32():
    v = run_values("""
%sum = OpFAdd %float %ftenth %ftenth
%prod = OpFMul %float %ftenth %f3
%rem = OpFRem %float %fm1 %f3
%mod = OpFMod %float %fm1 %f3
""", CONSTS)
    import numpy as np

    assert v["sum"] == float(np.float32(0.1) + np.float32(0.1))
    assert v["prod"] == float(np.float32(0.1) * np.float32(3))
    assert v["prod"] != 0.1 * 3  # float64 would give another value
    assert v["rem"] == -1.0 and v["mod"] == 2.0


def test_bit_instructions():
    v = run_values("""
%shr = OpShiftRightArithmetic %int %im7 %u3
%lsr = OpShiftRightLogical %uint %umax %u31
%not = OpNot %uint %u3
%xor = OpBitwiseXor %uint %u3 %u31
%cnt = OpBitCount %uint %umax
%rev = OpBitReverse %uint %u3
%ins = OpBitFieldInsert %uint %u0 %umax %u3 %u3
%sext = OpBitFieldSExtract %int %im7 %u0 %u3
%uext = OpBitFieldUExtract %uint %umax %u3 %u3
""", CONSTS)
    assert v["shr"] == -1
    assert v["lsr"] == 1
    assert v["not"] == 0xFFFFFFFC
    assert v["xor"] == 3 ^ 31
    assert v["cnt"] == 32
    assert v["rev"] == 0xC0000000
    assert v["ins"] == 0b111000
    assert v["sext"] == 1  # -7 = ...11001, low 3 bits 001
    assert v["uext"] == 7


def test_relational_and_logical_instructions():
    v = run_values("""
%slt = OpSLessThan %bool %im7 %i2
%ult = OpULessThan %bool %im7 %i2
%feq = OpFOrdEqual %bool %fnan %fnan
%fne = OpFUnordNotEqual %bool %fnan %fnan
%isnan = OpIsNan %bool %fnan
%sel = OpSelect %int %slt %i7 %i0
%and = OpLogicalAnd %bool %slt %ult
%vec = OpCompositeConstruct %v2bool %slt %ult
%any = OpAny %bool %vec
%all = OpAll %bool %vec
""", CONSTS + "%finf = OpSpecConstantOp %float FDiv %f1 %f0\n%fnan = OpSpecConstantOp %float FSub %finf %finf\n")
    assert v["slt"] is True and v["ult"] is False
    assert v["feq"] is False and v["fne"] is True and v["isnan"] is True
    assert v["sel"] == 7 and v["and"] is False
    assert v["any"] is True and v["all"] is False


def test_conversions():
    v = run_values("""
%ftos = OpConvertFToS %int %fm2_5
%ftou = OpConvertFToU %uint %f2_5
%stof = OpConvertSToF %float %im7
%utof = OpConvertUToF %float %umax
%sconv = OpSConvert %long %im7
%uconv = OpUConvert %ushort %umax
%bits = OpBitcast %uint %f1
%bad = OpConvertFToU %uint %fm2_5
%h = OpFConvert %half %ftenth
""", CONSTS + "%fm2_5 = OpConstant %float -2.5\n")
    assert v["ftos"] == -2 and v["ftou"] == 2
    assert v["stof"] == -7.0 and v["utof"] == 4294967296.0
    assert v["sconv"] == -7 and v["uconv"] == 0xFFFF
    assert v["bits"] == 0x3F800000
    assert v["bad"] == "undef"
    assert v["h"] == pytest.approx(0.0999755859375)


def test_composites_and_matrices():
    v = run_values("""
%a = OpCompositeConstruct %v4float %f1 %f3 %f0 %fm1
%sh = OpVectorShuffle %v2float %a %a 3 0
%ex = OpCompositeExtract %float %a 1
%in = OpCompositeInsert %v4float %f2_5 %a 2
%dyn = OpVectorExtractDynamic %float %a %i2
%c0 = OpCompositeConstruct %v2float %f1 %f3
%c1 = OpCompositeConstruct %v2float %f0 %fm1
%m = OpCompositeConstruct %mat2 %c0 %c1
%mv = OpMatrixTimesVector %v2float %m %c0
%t = OpTranspose %mat2 %m
%dot = OpDot %float %c0 %c1
""", CONSTS)
    assert v["sh"] == [-1.0, 1.0]
    assert v["ex"] == 3.0
    assert v["in"] == [1.0, 3.0, 2.5, -1.0]
    assert v["dyn"] == 0.0
    # columns (1,3) and (0,-1): M * (1,3) = 1*(1,3) + 3*(0,-1) = (1, 0)
    assert v["mv"] == [1.0, 0.0]
    assert v["t"] == [[1.0, 0.0], [3.0, -1.0]]
    assert v["dot"] == -3.0


def test_glsl_std_450():
    v = run_values("""
%sqrt = OpExtInst %float %glsl Sqrt %f3
%clamp = OpExtInst %float %glsl FClamp %f3 %fm1 %f2_5
%msb = OpExtInst %int %glsl FindUMsb %u31
%lsb = OpExtInst %int %glsl FindILsb %u0
%smin = OpExtInst %int %glsl SMin %im7 %i2
%v = OpCompositeConstruct %v2float %f1 %fm1
%pack = OpExtInst %uint %glsl PackSnorm2x16 %v
%unpack = OpExtInst %v2float %glsl UnpackSnorm2x16 %pack
%len = OpExtInst %float %glsl Length %v
%fract = OpExtInst %float %glsl Fract %fm2_5
%mix = OpExtInst %float %glsl FMix %f0 %f3 %f2_5
%step = OpExtInst %float %glsl Step %f1 %f0
""", CONSTS + "%fm2_5 = OpConstant %float -2.5\n")
    import numpy as np

    assert v["sqrt"] == float(np.float32(math.sqrt(3)))
    assert v["clamp"] == 2.5
    assert v["msb"] == 4 and v["lsb"] == -1 and v["smin"] == -7
    assert v["pack"] == 0x8001_7FFF
    assert v["unpack"] == [1.0, -1.0]
    assert v["len"] == float(np.float32(math.sqrt(2)))
    assert v["fract"] == 0.5
    assert v["mix"] == 7.5
    assert v["step"] == 0.0
