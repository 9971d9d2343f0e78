"""Built-in functions: compact signature descriptions -> concrete overloads.

The table `_TABLE` has one line per generic prototype of the specifications:

    DESKTOP ES [STAGES] [+EXTENSION ...] | RET name(PARAM, ...)

DESKTOP is the first desktop version ("110"), "-" for never, or "110c" for a
deprecated function that core profiles lose at 1.40 (compatibility keeps it),
"110c420" for one that core profiles keep until 4.20.
ES is the first ES version, "-" for never, or "100-" for ES 1.00 only. GLSL ES
3.00 removed GLSL ES 1.00's texture2D, texture2DProj, textureCube and their Lod
forms; they stay here in every ES version, as in Mesa (whose deprecated texture
functions exist in all of GLSL ES, the Lod forms in every stage from ES 3.00),
because programs written against Mesa call them from "#version 300 es" shaders.
For the same reason texture3D, texture3DProj and their Lod forms exist from GLSL
ES 3.00 (Mesa 22.3's llvmpipe compiles them there; shadow2D it refuses, as here).
STAGES restricts to "@v" (vertex), "@f" (fragment), "@c" (compute), "@g" (geometry), combinable.
+EXT makes the function available when that extension is enabled, &EXT only
while that one is enabled too; a word "es<300" keeps it (even through an
extension) out of GLSL ES 3.00 and later.

Generic parameter types expand in lockstep: genType = float..vec4, genIType,
genUType, genBType, genDType (sizes 1-4); vec, ivec, uvec, bvec (sizes 2-4);
mat (every float matrix), sqmat (square). `out`/`inout` mark directions.
Texture, image and matrix-shape families are generated in code below, from
the sampler and image types of `types.py`, because their shapes follow rules
rather than lists.

`builtin_signatures(version, stage, extensions)` returns {name: [signature]}
for one compilation; every concrete signature carries its availability, so
the same data answers "is texture2D available in a 1.40 core vertex shader?".
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from . import types as T
from .symbols import FunctionSignature, Variable
from .versions import GLSLVersion

STAGE_LETTERS = {"v": "vertex", "f": "fragment", "c": "compute", "g": "geometry", "t": "tess_control",
                 "e": "tess_evaluation"}

_TABLE = """
# 8.1 angle and trigonometry
110 100 | genType radians(genType)
110 100 | genType degrees(genType)
110 100 | genType sin(genType)
110 100 | genType cos(genType)
110 100 | genType tan(genType)
110 100 | genType asin(genType)
110 100 | genType acos(genType)
110 100 | genType atan(genType, genType)
110 100 | genType atan(genType)
130 300 | genType sinh(genType)
130 300 | genType cosh(genType)
130 300 | genType tanh(genType)
130 300 | genType asinh(genType)
130 300 | genType acosh(genType)
130 300 | genType atanh(genType)
# 8.2 exponential
110 100 | genType pow(genType, genType)
110 100 | genType exp(genType)
110 100 | genType log(genType)
110 100 | genType exp2(genType)
110 100 | genType log2(genType)
110 100 | genType sqrt(genType)
110 100 | genType inversesqrt(genType)
# 8.3 common
110 100 | genType abs(genType)
130 300 +GL_EXT_gpu_shader4 | genIType abs(genIType)
110 100 | genType sign(genType)
130 300 +GL_EXT_gpu_shader4 | genIType sign(genIType)
110 100 | genType floor(genType)
130 300 | genType trunc(genType)
130 300 +GL_EXT_gpu_shader4 | genType round(genType)
- - +GL_EXT_gpu_shader4 | genType truncate(genType)
130 300 | genType roundEven(genType)
110 100 | genType ceil(genType)
110 100 | genType fract(genType)
110 100 | genType mod(genType, float)
110 100 | genType mod(genType, genType)
130 300 | genType modf(genType, out genType)
110 100 | genType min(genType, genType)
110 100 | genType min(genType, float)
130 300 +GL_EXT_gpu_shader4 | genIType min(genIType, genIType)
130 300 +GL_EXT_gpu_shader4 | genIType min(genIType, int)
130 300 +GL_EXT_gpu_shader4 | genUType min(genUType, genUType)
130 300 +GL_EXT_gpu_shader4 | genUType min(genUType, uint)
110 100 | genType max(genType, genType)
110 100 | genType max(genType, float)
130 300 +GL_EXT_gpu_shader4 | genIType max(genIType, genIType)
130 300 +GL_EXT_gpu_shader4 | genIType max(genIType, int)
130 300 +GL_EXT_gpu_shader4 | genUType max(genUType, genUType)
130 300 +GL_EXT_gpu_shader4 | genUType max(genUType, uint)
110 100 | genType clamp(genType, genType, genType)
# GL_AMD_shader_trinary_minmax: the least, greatest and middle of three
- - +GL_AMD_shader_trinary_minmax | genType min3(genType, genType, genType)
- - +GL_AMD_shader_trinary_minmax | genIType min3(genIType, genIType, genIType)
- - +GL_AMD_shader_trinary_minmax | genUType min3(genUType, genUType, genUType)
- - +GL_AMD_shader_trinary_minmax | genType max3(genType, genType, genType)
- - +GL_AMD_shader_trinary_minmax | genIType max3(genIType, genIType, genIType)
- - +GL_AMD_shader_trinary_minmax | genUType max3(genUType, genUType, genUType)
- - +GL_AMD_shader_trinary_minmax | genType mid3(genType, genType, genType)
- - +GL_AMD_shader_trinary_minmax | genIType mid3(genIType, genIType, genIType)
- - +GL_AMD_shader_trinary_minmax | genUType mid3(genUType, genUType, genUType)
110 100 | genType clamp(genType, float, float)
130 300 +GL_EXT_gpu_shader4 | genIType clamp(genIType, genIType, genIType)
130 300 +GL_EXT_gpu_shader4 | genIType clamp(genIType, int, int)
130 300 +GL_EXT_gpu_shader4 | genUType clamp(genUType, genUType, genUType)
130 300 +GL_EXT_gpu_shader4 | genUType clamp(genUType, uint, uint)
110 100 | genType mix(genType, genType, genType)
110 100 | genType mix(genType, genType, float)
130 300 | genType mix(genType, genType, genBType)
450 310 +GL_EXT_shader_integer_mix | genIType mix(genIType, genIType, genBType)
450 310 +GL_EXT_shader_integer_mix | genUType mix(genUType, genUType, genBType)
450 310 +GL_EXT_shader_integer_mix | genBType mix(genBType, genBType, genBType)
110 100 | genType step(genType, genType)
110 100 | genType step(float, genType)
110 100 | genType smoothstep(genType, genType, genType)
110 100 | genType smoothstep(float, float, genType)
130 300 | genBType isnan(genType)
130 300 | genBType isinf(genType)
330 300 +GL_ARB_shader_bit_encoding +GL_ARB_gpu_shader5 | genIType floatBitsToInt(genType)
330 300 +GL_ARB_shader_bit_encoding +GL_ARB_gpu_shader5 | genUType floatBitsToUint(genType)
330 300 +GL_ARB_shader_bit_encoding +GL_ARB_gpu_shader5 | genType intBitsToFloat(genIType)
330 300 +GL_ARB_shader_bit_encoding +GL_ARB_gpu_shader5 | genType uintBitsToFloat(genUType)
400 - +GL_ARB_gpu_shader5 | genType fma(genType, genType, genType)
400 310 +GL_ARB_gpu_shader5 +GL_MESA_shader_integer_functions | genType frexp(genType, out genIType)
400 310 +GL_ARB_gpu_shader5 +GL_MESA_shader_integer_functions | genType ldexp(genType, genIType)
# double-precision overloads (GLSL 4.00; ARB_gpu_shader_fp64 from 1.50)
400 - +GL_ARB_gpu_shader_fp64 | genDType sqrt(genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType inversesqrt(genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType abs(genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType sign(genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType floor(genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType trunc(genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType round(genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType roundEven(genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType ceil(genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType fract(genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType mod(genDType, double)
400 - +GL_ARB_gpu_shader_fp64 | genDType mod(genDType, genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType modf(genDType, out genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType min(genDType, genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType min(genDType, double)
400 - +GL_ARB_gpu_shader_fp64 | genDType max(genDType, genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType max(genDType, double)
400 - +GL_ARB_gpu_shader_fp64 | genDType clamp(genDType, genDType, genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType clamp(genDType, double, double)
400 - +GL_ARB_gpu_shader_fp64 | genDType mix(genDType, genDType, genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType mix(genDType, genDType, double)
400 - +GL_ARB_gpu_shader_fp64 | genDType mix(genDType, genDType, genBType)
400 - +GL_ARB_gpu_shader_fp64 | genDType step(genDType, genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType step(double, genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType smoothstep(genDType, genDType, genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType smoothstep(double, double, genDType)
400 - +GL_ARB_gpu_shader_fp64 | genBType isnan(genDType)
400 - +GL_ARB_gpu_shader_fp64 | genBType isinf(genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType fma(genDType, genDType, genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType frexp(genDType, out genIType)
400 - +GL_ARB_gpu_shader_fp64 | genDType ldexp(genDType, genIType)
400 - +GL_ARB_gpu_shader_fp64 | double length(genDType)
400 - +GL_ARB_gpu_shader_fp64 | double distance(genDType, genDType)
400 - +GL_ARB_gpu_shader_fp64 | double dot(genDType, genDType)
400 - +GL_ARB_gpu_shader_fp64 | dvec3 cross(dvec3, dvec3)
400 - +GL_ARB_gpu_shader_fp64 | genDType normalize(genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType faceforward(genDType, genDType, genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType reflect(genDType, genDType)
400 - +GL_ARB_gpu_shader_fp64 | genDType refract(genDType, genDType, double)
400 - +GL_ARB_gpu_shader_fp64 | dmat matrixCompMult(dmat, dmat)
400 - +GL_ARB_gpu_shader_fp64 | double determinant(dsqmat)
400 - +GL_ARB_gpu_shader_fp64 | dsqmat inverse(dsqmat)
400 - +GL_ARB_gpu_shader_fp64 | bvec lessThan(dvec, dvec)
400 - +GL_ARB_gpu_shader_fp64 | bvec lessThanEqual(dvec, dvec)
400 - +GL_ARB_gpu_shader_fp64 | bvec greaterThan(dvec, dvec)
400 - +GL_ARB_gpu_shader_fp64 | bvec greaterThanEqual(dvec, dvec)
400 - +GL_ARB_gpu_shader_fp64 | bvec equal(dvec, dvec)
400 - +GL_ARB_gpu_shader_fp64 | bvec notEqual(dvec, dvec)
# ARB_gpu_shader_int64 (64-bit integer overloads and bit casts)
- - +GL_ARB_gpu_shader_int64 | genI64Type abs(genI64Type)
- - +GL_ARB_gpu_shader_int64 | genI64Type sign(genI64Type)
- - +GL_ARB_gpu_shader_int64 | genI64Type min(genI64Type, genI64Type)
- - +GL_ARB_gpu_shader_int64 | genI64Type min(genI64Type, int64_t)
- - +GL_ARB_gpu_shader_int64 | genU64Type min(genU64Type, genU64Type)
- - +GL_ARB_gpu_shader_int64 | genU64Type min(genU64Type, uint64_t)
- - +GL_ARB_gpu_shader_int64 | genI64Type max(genI64Type, genI64Type)
- - +GL_ARB_gpu_shader_int64 | genI64Type max(genI64Type, int64_t)
- - +GL_ARB_gpu_shader_int64 | genU64Type max(genU64Type, genU64Type)
- - +GL_ARB_gpu_shader_int64 | genU64Type max(genU64Type, uint64_t)
- - +GL_ARB_gpu_shader_int64 | genI64Type clamp(genI64Type, genI64Type, genI64Type)
- - +GL_ARB_gpu_shader_int64 | genI64Type clamp(genI64Type, int64_t, int64_t)
- - +GL_ARB_gpu_shader_int64 | genU64Type clamp(genU64Type, genU64Type, genU64Type)
- - +GL_ARB_gpu_shader_int64 | genU64Type clamp(genU64Type, uint64_t, uint64_t)
- - +GL_ARB_gpu_shader_int64 | genI64Type mix(genI64Type, genI64Type, genBType)
- - +GL_ARB_gpu_shader_int64 | genU64Type mix(genU64Type, genU64Type, genBType)
- - +GL_ARB_gpu_shader_int64 | genI64Type doubleBitsToInt64(genDType)
- - +GL_ARB_gpu_shader_int64 | genU64Type doubleBitsToUint64(genDType)
- - +GL_ARB_gpu_shader_int64 | genDType int64BitsToDouble(genI64Type)
- - +GL_ARB_gpu_shader_int64 | genDType uint64BitsToDouble(genU64Type)
- - +GL_ARB_gpu_shader_int64 | int64_t packInt2x32(ivec2)
- - +GL_ARB_gpu_shader_int64 | uint64_t packUint2x32(uvec2)
# ARB_shader_ballot (the ISA's simd instruction; ballotARB's uint64_t needs ARB_gpu_shader_int64)
- - +GL_ARB_shader_ballot &GL_ARB_gpu_shader_int64 | uint64_t ballotARB(bool)
- - +GL_ARB_shader_ballot | genType readInvocationARB(genType, uint)
- - +GL_ARB_shader_ballot | genIType readInvocationARB(genIType, uint)
- - +GL_ARB_shader_ballot | genUType readInvocationARB(genUType, uint)
- - +GL_ARB_shader_ballot | genType readFirstInvocationARB(genType)
- - +GL_ARB_shader_ballot | genIType readFirstInvocationARB(genIType)
- - +GL_ARB_shader_ballot | genUType readFirstInvocationARB(genUType)
# ARB_shader_clock (clockARB also needs the 64-bit types: ARB_gpu_shader_int64)
- - +GL_ARB_shader_clock | uvec2 clock2x32ARB()
- - +GL_ARB_shader_clock &GL_ARB_gpu_shader_int64 | uint64_t clockARB()
- - +GL_ARB_gpu_shader_int64 | ivec2 unpackInt2x32(int64_t)
- - +GL_ARB_gpu_shader_int64 | uvec2 unpackUint2x32(uint64_t)
- - +GL_ARB_gpu_shader_int64 | bvec lessThan(i64vec, i64vec)
- - +GL_ARB_gpu_shader_int64 | bvec lessThan(u64vec, u64vec)
- - +GL_ARB_gpu_shader_int64 | bvec lessThanEqual(i64vec, i64vec)
- - +GL_ARB_gpu_shader_int64 | bvec lessThanEqual(u64vec, u64vec)
- - +GL_ARB_gpu_shader_int64 | bvec greaterThan(i64vec, i64vec)
- - +GL_ARB_gpu_shader_int64 | bvec greaterThan(u64vec, u64vec)
- - +GL_ARB_gpu_shader_int64 | bvec greaterThanEqual(i64vec, i64vec)
- - +GL_ARB_gpu_shader_int64 | bvec greaterThanEqual(u64vec, u64vec)
- - +GL_ARB_gpu_shader_int64 | bvec equal(i64vec, i64vec)
- - +GL_ARB_gpu_shader_int64 | bvec equal(u64vec, u64vec)
- - +GL_ARB_gpu_shader_int64 | bvec notEqual(i64vec, i64vec)
- - +GL_ARB_gpu_shader_int64 | bvec notEqual(u64vec, u64vec)
# 8.4 floating-point pack and unpack
400 300 +GL_ARB_gpu_shader5 +GL_ARB_shading_language_packing | uint packUnorm2x16(vec2)
420 300 +GL_ARB_shading_language_packing | uint packSnorm2x16(vec2)
400 310 +GL_ARB_gpu_shader5 +GL_ARB_shading_language_packing | uint packUnorm4x8(vec4)
400 310 +GL_ARB_gpu_shader5 +GL_ARB_shading_language_packing | uint packSnorm4x8(vec4)
400 300 +GL_ARB_gpu_shader5 +GL_ARB_shading_language_packing | vec2 unpackUnorm2x16(uint)
420 300 +GL_ARB_shading_language_packing | vec2 unpackSnorm2x16(uint)
400 310 +GL_ARB_gpu_shader5 +GL_ARB_shading_language_packing | vec4 unpackUnorm4x8(uint)
400 310 +GL_ARB_gpu_shader5 +GL_ARB_shading_language_packing | vec4 unpackSnorm4x8(uint)
420 300 +GL_ARB_shading_language_packing | uint packHalf2x16(vec2)
420 300 +GL_ARB_shading_language_packing | vec2 unpackHalf2x16(uint)
400 - +GL_ARB_gpu_shader_fp64 | double packDouble2x32(uvec2)
400 - +GL_ARB_gpu_shader_fp64 | uvec2 unpackDouble2x32(double)
# 8.5 geometric
110 100 | float length(genType)
110 100 | float distance(genType, genType)
110 100 | float dot(genType, genType)
110 100 | vec3 cross(vec3, vec3)
110 100 | genType normalize(genType)
110c - @v | vec4 ftransform()
110 100 | genType faceforward(genType, genType, genType)
110 100 | genType reflect(genType, genType)
110 100 | genType refract(genType, genType, float)
# 8.6 matrix (outerProduct and transpose are generated)
110 100 | mat matrixCompMult(mat, mat)
150 300 | float determinant(sqmat)
140 300 | sqmat inverse(sqmat)
# 8.7 vector relational
110 100 | bvec lessThan(vec, vec)
110 100 | bvec lessThan(ivec, ivec)
130 300 +GL_EXT_gpu_shader4 | bvec lessThan(uvec, uvec)
110 100 | bvec lessThanEqual(vec, vec)
110 100 | bvec lessThanEqual(ivec, ivec)
130 300 +GL_EXT_gpu_shader4 | bvec lessThanEqual(uvec, uvec)
110 100 | bvec greaterThan(vec, vec)
110 100 | bvec greaterThan(ivec, ivec)
130 300 +GL_EXT_gpu_shader4 | bvec greaterThan(uvec, uvec)
110 100 | bvec greaterThanEqual(vec, vec)
110 100 | bvec greaterThanEqual(ivec, ivec)
130 300 +GL_EXT_gpu_shader4 | bvec greaterThanEqual(uvec, uvec)
110 100 | bvec equal(vec, vec)
110 100 | bvec equal(ivec, ivec)
130 300 +GL_EXT_gpu_shader4 | bvec equal(uvec, uvec)
110 100 | bvec equal(bvec, bvec)
110 100 | bvec notEqual(vec, vec)
110 100 | bvec notEqual(ivec, ivec)
130 300 +GL_EXT_gpu_shader4 | bvec notEqual(uvec, uvec)
110 100 | bvec notEqual(bvec, bvec)
110 100 | bool any(bvec)
110 100 | bool all(bvec)
110 100 | bvec not(bvec)
# 8.8 integer
400 310 +GL_ARB_gpu_shader5 +GL_MESA_shader_integer_functions | genUType uaddCarry(genUType, genUType, out genUType)
400 310 +GL_ARB_gpu_shader5 +GL_MESA_shader_integer_functions | genUType usubBorrow(genUType, genUType, out genUType)
400 310 +GL_ARB_gpu_shader5 +GL_MESA_shader_integer_functions | void umulExtended(genUType, genUType, out genUType, out genUType)
400 310 +GL_ARB_gpu_shader5 +GL_MESA_shader_integer_functions | void imulExtended(genIType, genIType, out genIType, out genIType)
400 310 +GL_ARB_gpu_shader5 +GL_MESA_shader_integer_functions | genIType bitfieldExtract(genIType, int, int)
400 310 +GL_ARB_gpu_shader5 +GL_MESA_shader_integer_functions | genUType bitfieldExtract(genUType, int, int)
400 310 +GL_ARB_gpu_shader5 +GL_MESA_shader_integer_functions | genIType bitfieldInsert(genIType, genIType, int, int)
400 310 +GL_ARB_gpu_shader5 +GL_MESA_shader_integer_functions | genUType bitfieldInsert(genUType, genUType, int, int)
400 310 +GL_ARB_gpu_shader5 +GL_MESA_shader_integer_functions | genIType bitfieldReverse(genIType)
400 310 +GL_ARB_gpu_shader5 +GL_MESA_shader_integer_functions | genUType bitfieldReverse(genUType)
400 310 +GL_ARB_gpu_shader5 +GL_MESA_shader_integer_functions | genIType bitCount(genIType)
400 310 +GL_ARB_gpu_shader5 +GL_MESA_shader_integer_functions | genIType bitCount(genUType)
400 310 +GL_ARB_gpu_shader5 +GL_MESA_shader_integer_functions | genIType findLSB(genIType)
400 310 +GL_ARB_gpu_shader5 +GL_MESA_shader_integer_functions | genIType findLSB(genUType)
400 310 +GL_ARB_gpu_shader5 +GL_MESA_shader_integer_functions | genIType findMSB(genIType)
400 310 +GL_ARB_gpu_shader5 +GL_MESA_shader_integer_functions | genIType findMSB(genUType)
# 8.10 atomic counters
420 310 +GL_ARB_shader_atomic_counters | uint atomicCounterIncrement(atomic_uint)
420 310 +GL_ARB_shader_atomic_counters | uint atomicCounterDecrement(atomic_uint)
420 310 +GL_ARB_shader_atomic_counters | uint atomicCounter(atomic_uint)
- - +GL_ARB_shader_atomic_counter_ops | uint atomicCounterAddARB(atomic_uint, uint)
- - +GL_ARB_shader_atomic_counter_ops | uint atomicCounterSubtractARB(atomic_uint, uint)
- - +GL_ARB_shader_atomic_counter_ops | uint atomicCounterMinARB(atomic_uint, uint)
- - +GL_ARB_shader_atomic_counter_ops | uint atomicCounterMaxARB(atomic_uint, uint)
- - +GL_ARB_shader_atomic_counter_ops | uint atomicCounterAndARB(atomic_uint, uint)
- - +GL_ARB_shader_atomic_counter_ops | uint atomicCounterOrARB(atomic_uint, uint)
- - +GL_ARB_shader_atomic_counter_ops | uint atomicCounterXorARB(atomic_uint, uint)
- - +GL_ARB_shader_atomic_counter_ops | uint atomicCounterExchangeARB(atomic_uint, uint)
- - +GL_ARB_shader_atomic_counter_ops | uint atomicCounterCompSwapARB(atomic_uint, uint, uint)
460 - | uint atomicCounterAdd(atomic_uint, uint)
460 - | uint atomicCounterSubtract(atomic_uint, uint)
460 - | uint atomicCounterMin(atomic_uint, uint)
460 - | uint atomicCounterMax(atomic_uint, uint)
460 - | uint atomicCounterAnd(atomic_uint, uint)
460 - | uint atomicCounterOr(atomic_uint, uint)
460 - | uint atomicCounterXor(atomic_uint, uint)
460 - | uint atomicCounterExchange(atomic_uint, uint)
460 - | uint atomicCounterCompSwap(atomic_uint, uint, uint)
# 8.11 atomic memory functions (first argument: a buffer or shared variable)
430 310 +GL_ARB_shader_storage_buffer_object +GL_ARB_compute_shader | uint atomicAdd(inout uint, uint)
430 310 +GL_ARB_shader_storage_buffer_object +GL_ARB_compute_shader | int atomicAdd(inout int, int)
430 310 +GL_ARB_shader_storage_buffer_object +GL_ARB_compute_shader | uint atomicMin(inout uint, uint)
430 310 +GL_ARB_shader_storage_buffer_object +GL_ARB_compute_shader | int atomicMin(inout int, int)
430 310 +GL_ARB_shader_storage_buffer_object +GL_ARB_compute_shader | uint atomicMax(inout uint, uint)
430 310 +GL_ARB_shader_storage_buffer_object +GL_ARB_compute_shader | int atomicMax(inout int, int)
430 310 +GL_ARB_shader_storage_buffer_object +GL_ARB_compute_shader | uint atomicAnd(inout uint, uint)
430 310 +GL_ARB_shader_storage_buffer_object +GL_ARB_compute_shader | int atomicAnd(inout int, int)
430 310 +GL_ARB_shader_storage_buffer_object +GL_ARB_compute_shader | uint atomicOr(inout uint, uint)
430 310 +GL_ARB_shader_storage_buffer_object +GL_ARB_compute_shader | int atomicOr(inout int, int)
430 310 +GL_ARB_shader_storage_buffer_object +GL_ARB_compute_shader | uint atomicXor(inout uint, uint)
430 310 +GL_ARB_shader_storage_buffer_object +GL_ARB_compute_shader | int atomicXor(inout int, int)
430 310 +GL_ARB_shader_storage_buffer_object +GL_ARB_compute_shader | uint atomicExchange(inout uint, uint)
430 310 +GL_ARB_shader_storage_buffer_object +GL_ARB_compute_shader | int atomicExchange(inout int, int)
430 310 +GL_ARB_shader_storage_buffer_object +GL_ARB_compute_shader | uint atomicCompSwap(inout uint, uint, uint)
430 310 +GL_ARB_shader_storage_buffer_object +GL_ARB_compute_shader | int atomicCompSwap(inout int, int, int)
# on float buffer and shared variables (NV_shader_atomic_float: add, exchange;
# INTEL_shader_atomic_float_minmax: min, max, compare-exchange, exchange)
- - +GL_NV_shader_atomic_float | float atomicAdd(inout float, float)
- - +GL_NV_shader_atomic_float +GL_INTEL_shader_atomic_float_minmax | float atomicExchange(inout float, float)
- - +GL_INTEL_shader_atomic_float_minmax | float atomicMin(inout float, float)
- - +GL_INTEL_shader_atomic_float_minmax | float atomicMax(inout float, float)
- - +GL_INTEL_shader_atomic_float_minmax | float atomicCompSwap(inout float, float, float)
# 8.13 fragment processing (derivatives, interpolation)
110 300 @f +GL_OES_standard_derivatives | genType dFdx(genType)
110 300 @f +GL_OES_standard_derivatives | genType dFdy(genType)
110 300 @f +GL_OES_standard_derivatives | genType fwidth(genType)
450 - @f +GL_ARB_derivative_control | genType dFdxFine(genType)
450 - @f +GL_ARB_derivative_control | genType dFdyFine(genType)
450 - @f +GL_ARB_derivative_control | genType fwidthFine(genType)
450 - @f +GL_ARB_derivative_control | genType dFdxCoarse(genType)
450 - @f +GL_ARB_derivative_control | genType dFdyCoarse(genType)
450 - @f +GL_ARB_derivative_control | genType fwidthCoarse(genType)
400 320 @f +GL_ARB_gpu_shader5 +GL_OES_shader_multisample_interpolation | genType interpolateAtCentroid(genType)
400 320 @f +GL_ARB_gpu_shader5 +GL_OES_shader_multisample_interpolation | genType interpolateAtSample(genType, int)
400 320 @f +GL_ARB_gpu_shader5 +GL_OES_shader_multisample_interpolation | genType interpolateAtOffset(genType, vec2)
# 8.14 noise
110 - | float noise1(genType)
110 - | vec2 noise2(genType)
110 - | vec3 noise3(genType)
110 - | vec4 noise4(genType)
# 8.16 shader invocation control and memory control
150 310 @g | void EmitVertex()
150 310 @g | void EndPrimitive()
400 - @g +GL_ARB_gpu_shader5 | void EmitStreamVertex(int)
400 - @g +GL_ARB_gpu_shader5 | void EndStreamPrimitive(int)
430 310 @c +GL_ARB_compute_shader | void barrier()
400 - @t +GL_ARB_tessellation_shader | void barrier()
420 310 +GL_ARB_shader_image_load_store | void memoryBarrier()
420 310 +GL_ARB_shader_atomic_counters | void memoryBarrierAtomicCounter()
430 310 +GL_ARB_shader_storage_buffer_object +GL_ARB_compute_shader | void memoryBarrierBuffer()
430 310 @c +GL_ARB_compute_shader | void memoryBarrierShared()
430 310 +GL_ARB_shader_image_load_store +GL_ARB_compute_shader | void memoryBarrierImage()
430 310 @c +GL_ARB_compute_shader | void groupMemoryBarrier()
# 8.18 shader invocation group functions (GLSL 4.60; ARB_shader_group_vote's *ARB names)
460 - | bool anyInvocation(bool)
460 - | bool allInvocations(bool)
460 - | bool allInvocationsEqual(bool)
- - +GL_ARB_shader_group_vote | bool anyInvocationARB(bool)
- - +GL_ARB_shader_group_vote | bool allInvocationsARB(bool)
- - +GL_ARB_shader_group_vote | bool allInvocationsEqualARB(bool)
# legacy texture functions (compatibility; ES 1.00). The *Lod ones exist in vertex
# shaders, elsewhere from GLSL 1.30 or with ARB_shader_texture_lod (1.10 section 8.7).
# Deprecated in 1.30, they stay in core profiles until GLSL 4.20 moved them to the
# compatibility profile, as in Mesa: core programs of #version 140-410 call texture2D.
110c420 - | vec4 texture1D(sampler1D, float)
110c420 - @f | vec4 texture1D(sampler1D, float, float)
110c420 - | vec4 texture1DProj(sampler1D, vec2)
110c420 - @f | vec4 texture1DProj(sampler1D, vec2, float)
110c420 - | vec4 texture1DProj(sampler1D, vec4)
110c420 - @f | vec4 texture1DProj(sampler1D, vec4, float)
110c420 - @v | vec4 texture1DLod(sampler1D, float, float)
130c420 - @fc +GL_ARB_shader_texture_lod | vec4 texture1DLod(sampler1D, float, float)
110c420 - @v | vec4 texture1DProjLod(sampler1D, vec2, float)
130c420 - @fc +GL_ARB_shader_texture_lod | vec4 texture1DProjLod(sampler1D, vec2, float)
110c420 - @v | vec4 texture1DProjLod(sampler1D, vec4, float)
130c420 - @fc +GL_ARB_shader_texture_lod | vec4 texture1DProjLod(sampler1D, vec4, float)
110c420 100 | vec4 texture2D(sampler2D, vec2)
# GL_AMD_texture_texture4: the four texels of the bilinear footprint's first component
# (textureGather's component 0, from GLSL 1.10)
- - +GL_AMD_texture_texture4 | vec4 texture4(sampler2D, vec2)
110c420 100 @f | vec4 texture2D(sampler2D, vec2, float)
110c420 100 | vec4 texture2DProj(sampler2D, vec3)
110c420 100 @f | vec4 texture2DProj(sampler2D, vec3, float)
110c420 100 | vec4 texture2DProj(sampler2D, vec4)
110c420 100 @f | vec4 texture2DProj(sampler2D, vec4, float)
110c420 - @v | vec4 texture2DLod(sampler2D, vec2, float)
130c420 - @fc +GL_ARB_shader_texture_lod | vec4 texture2DLod(sampler2D, vec2, float)
110c420 - @v | vec4 texture2DProjLod(sampler2D, vec3, float)
130c420 - @fc +GL_ARB_shader_texture_lod | vec4 texture2DProjLod(sampler2D, vec3, float)
110c420 - @v | vec4 texture2DProjLod(sampler2D, vec4, float)
130c420 - @fc +GL_ARB_shader_texture_lod | vec4 texture2DProjLod(sampler2D, vec4, float)
- 100 @v | vec4 texture2DLod(sampler2D, vec2, float)
- 300 @fcgte | vec4 texture2DLod(sampler2D, vec2, float)
- 100 @v | vec4 texture2DProjLod(sampler2D, vec3, float)
- 300 @fcgte | vec4 texture2DProjLod(sampler2D, vec3, float)
- 100 @v | vec4 texture2DProjLod(sampler2D, vec4, float)
- 300 @fcgte | vec4 texture2DProjLod(sampler2D, vec4, float)
110c420 300 | vec4 texture3D(sampler3D, vec3)
110c420 300 @f | vec4 texture3D(sampler3D, vec3, float)
110c420 300 | vec4 texture3DProj(sampler3D, vec4)
110c420 300 @f | vec4 texture3DProj(sampler3D, vec4, float)
110c420 - @v | vec4 texture3DLod(sampler3D, vec3, float)
- 300 | vec4 texture3DLod(sampler3D, vec3, float)
130c420 - @fc +GL_ARB_shader_texture_lod | vec4 texture3DLod(sampler3D, vec3, float)
110c420 - @v | vec4 texture3DProjLod(sampler3D, vec4, float)
- 300 | vec4 texture3DProjLod(sampler3D, vec4, float)
130c420 - @fc +GL_ARB_shader_texture_lod | vec4 texture3DProjLod(sampler3D, vec4, float)
110c420 100 | vec4 textureCube(samplerCube, vec3)
110c420 100 @f | vec4 textureCube(samplerCube, vec3, float)
110c420 - @v | vec4 textureCubeLod(samplerCube, vec3, float)
130c420 - @fc +GL_ARB_shader_texture_lod | vec4 textureCubeLod(samplerCube, vec3, float)
- 100 @v | vec4 textureCubeLod(samplerCube, vec3, float)
- 300 @fcgte | vec4 textureCubeLod(samplerCube, vec3, float)
110c420 - | vec4 shadow1D(sampler1DShadow, vec3)
110c420 - @f | vec4 shadow1D(sampler1DShadow, vec3, float)
110c420 - | vec4 shadow2D(sampler2DShadow, vec3)
110c420 - @f | vec4 shadow2D(sampler2DShadow, vec3, float)
110c420 - | vec4 shadow1DProj(sampler1DShadow, vec4)
110c420 - @f | vec4 shadow1DProj(sampler1DShadow, vec4, float)
110c420 - | vec4 shadow2DProj(sampler2DShadow, vec4)
110c420 - @f | vec4 shadow2DProj(sampler2DShadow, vec4, float)
110c420 - @v | vec4 shadow1DLod(sampler1DShadow, vec3, float)
130c420 - @fc +GL_ARB_shader_texture_lod | vec4 shadow1DLod(sampler1DShadow, vec3, float)
110c420 - @v | vec4 shadow2DLod(sampler2DShadow, vec3, float)
130c420 - @fc +GL_ARB_shader_texture_lod | vec4 shadow2DLod(sampler2DShadow, vec3, float)
110c420 - @v | vec4 shadow1DProjLod(sampler1DShadow, vec4, float)
130c420 - @fc +GL_ARB_shader_texture_lod | vec4 shadow1DProjLod(sampler1DShadow, vec4, float)
110c420 - @v | vec4 shadow2DProjLod(sampler2DShadow, vec4, float)
130c420 - @fc +GL_ARB_shader_texture_lod | vec4 shadow2DProjLod(sampler2DShadow, vec4, float)
110c420 - | vec4 texture2DRect(sampler2DRect, vec2)
110c420 - | vec4 texture2DRectProj(sampler2DRect, vec3)
110c420 - | vec4 texture2DRectProj(sampler2DRect, vec4)
110c420 - | vec4 shadow2DRect(sampler2DRectShadow, vec3)
110c420 - | vec4 shadow2DRectProj(sampler2DRectShadow, vec4)
- - @f +GL_EXT_shader_texture_lod | vec4 texture2DLodEXT(sampler2D, vec2, float)
- - @f +GL_EXT_shader_texture_lod | vec4 texture2DProjLodEXT(sampler2D, vec3, float)
- - @f +GL_EXT_shader_texture_lod | vec4 texture2DProjLodEXT(sampler2D, vec4, float)
- - @f +GL_EXT_shader_texture_lod | vec4 textureCubeLodEXT(samplerCube, vec3, float)
- - @f +GL_EXT_shader_texture_lod | vec4 texture2DGradEXT(sampler2D, vec2, vec2, vec2)
- - @f +GL_EXT_shader_texture_lod | vec4 texture2DProjGradEXT(sampler2D, vec3, vec2, vec2)
- - @f +GL_EXT_shader_texture_lod | vec4 texture2DProjGradEXT(sampler2D, vec4, vec2, vec2)
- - @f +GL_EXT_shader_texture_lod | vec4 textureCubeGradEXT(samplerCube, vec3, vec3, vec3)
"""


@dataclass(frozen=True, slots=True)
class Availability:
    """Where a built-in (function or variable) exists."""

    desktop: int = 0  # first desktop version (0 = never)
    es: int = 0  # first ES version (0 = never)
    deprecated: bool = False  # desktop core profiles (from ``core_from``) lose it
    es_until: int = 0  # ES: last version + 1 (0 = no end)
    core_from: int = 140  # deprecated: the first desktop version whose core profile lacks it
    stages: frozenset[str] = frozenset()  # empty = every stage
    extensions: tuple[str, ...] = ()  # enabling any of these makes it available
    requires: tuple[str, ...] = ()  # and these must all be enabled too ("&EXT")

    def available(self, version: GLSLVersion, stage: str, extensions=()) -> bool:
        if self.stages and stage not in self.stages:
            return False
        if version.es:
            ok = self.es != 0 and version.number >= self.es and (
                not self.es_until or version.number < self.es_until)
        else:
            ok = self.desktop != 0 and version.number >= self.desktop
            if ok and self.deprecated and version.number >= self.core_from and not version.compatibility:
                ok = False
        if not ok:
            # an extension's built-in may still end with the ES version (``es<300``)
            ok = any(e in extensions for e in self.extensions) and not (
                version.es and self.es_until and version.number >= self.es_until)
        return ok and all(e in extensions for e in self.requires)


def _parse_availability(head: str) -> Availability:
    words = head.split()
    desktop, es = words[0], words[1]
    stages: set[str] = set()
    exts: list[str] = []
    needs: list[str] = []
    es_until = 300 if es.endswith("-") and es != "-" else 0
    for w in words[2:]:
        if w.startswith("@"):
            stages.update(STAGE_LETTERS[c] for c in w[1:])
        elif w.startswith("+"):
            exts.append(w[1:])
        elif w.startswith("&"):
            needs.append(w[1:])
        elif w.startswith("es<"):          # "es<300": in GLSL ES only below 3.00, even by extension
            es_until = int(w[3:])
    # "110c": deprecated, gone from core profiles from 1.40; "110c420": from 4.20
    first, _c, core_from = desktop.partition("c")
    deprecated = bool(_c)
    return Availability(
        desktop=0 if desktop == "-" else int(first),
        es=0 if es == "-" else int(es.rstrip("-")),
        deprecated=deprecated, es_until=es_until, stages=frozenset(stages), extensions=tuple(exts),
        core_from=int(core_from) if core_from else 140, requires=tuple(needs))


_GENERIC_BASES = {"genType": "float", "genIType": "int", "genUType": "uint", "genBType": "bool",
                  "genDType": "double", "vec": "float", "ivec": "int", "uvec": "uint", "bvec": "bool",
                  "dvec": "double", "genI64Type": "int64", "genU64Type": "uint64", "i64vec": "int64",
                  "u64vec": "uint64"}


def _expand(ret: str, params: list[tuple[str, str]]) -> list[tuple[T.GLSLType, list[tuple[str, T.GLSLType]]]]:
    """Expand generic type names of one prototype into concrete (return, params) pairs."""
    names = [ret] + [p for _, p in params]
    if any(n in ("mat", "sqmat", "dmat", "dsqmat") for n in names):
        out = []
        base = "double" if any(n in ("dmat", "dsqmat") for n in names) else "float"
        for c in (2, 3, 4):
            for r in (2, 3, 4):
                if ("sqmat" in names or "dsqmat" in names) and c != r:
                    continue
                m = T.matrix(base, c, r)
                conv = lambda n: m if n in ("mat", "sqmat", "dmat", "dsqmat") else T.lookup(n)  # noqa: E731
                out.append((conv(ret), [(d, conv(p)) for d, p in params]))
        return out
    generic = [n for n in names if n in _GENERIC_BASES]
    if not generic:
        return [(T.lookup(ret), [(d, T.lookup(p)) for d, p in params])]
    sizes = (2, 3, 4) if any(n in ("vec", "ivec", "uvec", "bvec", "dvec", "i64vec", "u64vec") for n in generic) \
        else (1, 2, 3, 4)
    out = []
    for n in sizes:
        conv = lambda t: T.vector(_GENERIC_BASES[t], n) if t in _GENERIC_BASES else T.lookup(t)  # noqa: E731
        out.append((conv(ret), [(d, conv(p)) for d, p in params]))
    return out


@dataclass(frozen=True, slots=True)
class BuiltinFunction:
    """One concrete overload and where it exists."""

    name: str
    return_type: T.GLSLType
    params: tuple[tuple[str, T.GLSLType], ...]  # (direction, type); direction in/out/inout
    availability: Availability

    def signature(self) -> FunctionSignature:
        params = [Variable(f"p{i}", t, storage=d, scope="parameter", builtin=True)
                  for i, (d, t) in enumerate(self.params)]
        return FunctionSignature(self.name, self.return_type, params, builtin=True)


def _table_functions() -> list[BuiltinFunction]:
    out = []
    for line in _TABLE.strip().splitlines():
        if not line or line.startswith("#"):
            continue
        head, proto = line.split("|")
        avail = _parse_availability(head)
        proto = proto.strip()
        ret_name, rest = proto.split(" ", 1)
        name, args = rest.split("(", 1)
        args = args.rstrip(")").strip()
        params = []
        for a in (x.strip() for x in args.split(",") if x.strip()):
            words = a.split()
            params.append((words[0], words[1]) if len(words) == 2 else ("in", words[0]))
        for ret, ps in _expand(ret_name, params):
            out.append(BuiltinFunction(name.strip(), ret, tuple(ps), avail))
    return out


def _matrix_shape_functions() -> list[BuiltinFunction]:
    out = []
    for c in (2, 3, 4):
        for r in (2, 3, 4):
            avail = Availability(120, 300)
            m = T.matrix("float", c, r)
            # outerProduct(column vector c_size=r, row vector size=c) -> mat c x r
            out.append(BuiltinFunction("outerProduct", m, (("in", T.vector("float", r)),
                                                           ("in", T.vector("float", c))), avail))
            out.append(BuiltinFunction("transpose", T.matrix("float", r, c), (("in", m),), avail))
            d_avail = Availability(400, 0, extensions=("GL_ARB_gpu_shader_fp64",))
            dm = T.matrix("double", c, r)
            out.append(BuiltinFunction("outerProduct", dm, (("in", T.vector("double", r)),
                                                            ("in", T.vector("double", c))), d_avail))
            out.append(BuiltinFunction("transpose", T.matrix("double", r, c), (("in", dm),), d_avail))
    return out


# -- textures ------------------------------------------------------------------

_COORD = {"1D": 1, "2D": 2, "3D": 3, "Cube": 3, "Rect": 2, "Buffer": 1, "2DMS": 2}
_OFFSET = {"1D": 1, "2D": 2, "3D": 3, "Rect": 2, "2DMS": 2}


def _samplers() -> list[T.GLSLType]:
    """The sampler types whose lookups follow from their shape (samplerExternalOES has
    its own short list: _external_texture_functions)."""
    return [T.lookup(n) for n in sorted(T.all_builtin_type_names())
            if T.lookup(n).is_sampler and not T.lookup(n).sampler_external]


def _external_texture_functions() -> list[BuiltinFunction]:
    """OES_EGL_image_external: texture2D and texture2DProj (vec3, vec4) of a
    samplerExternalOES (GLSL ES 1.00); OES_EGL_image_external_essl3 (GLSL ES 3.00
    and later): texture, textureProj (vec3, vec4), textureSize(s, lod) and
    texelFetch(s, ivec2, lod). No bias, LOD, gradient, offset or gather form."""
    s, ext1, ext3 = T.SAMPLER_EXTERNAL, ("GL_OES_EGL_image_external",), ("GL_OES_EGL_image_external_essl3",)
    out = []

    def add(name, ret, params, exts):
        out.append(BuiltinFunction(name, ret, tuple(("in", p) for p in (s, *params)),
                                   Availability(0, 0, extensions=exts)))

    # in GLSL ES 3.x too when GL_OES_EGL_image_external is enabled, as Mesa keeps them
    for name, n in (("texture2D", 2), ("texture2DProj", 3), ("texture2DProj", 4)):
        add(name, T.VEC4, [T.vector("float", n)], ext1)
    add("texture", T.VEC4, [T.VEC2], ext3)
    add("textureProj", T.VEC4, [T.VEC3], ext3)
    add("textureProj", T.VEC4, [T.VEC4], ext3)
    add("textureSize", T.IVEC2, [T.INT], ext3)
    add("texelFetch", T.VEC4, [T.IVEC2, T.INT], ext3)
    return out


def _coord_size(s: T.GLSLType) -> int:
    n = _COORD[s.sampler_dim] + (1 if s.sampler_array else 0)
    if s.sampler_shadow:
        if s.sampler_dim == "Cube" and s.sampler_array:
            return 4  # the reference is a separate parameter
        n = max(n + 1, 3) if s.sampler_dim == "1D" else n + 1
    return n


def _texture_functions() -> list[BuiltinFunction]:
    out: list[BuiltinFunction] = []
    F, I = "float", "int"

    def add(name, ret, params, d, e, stages=(), exts=()):
        if params[0].sampler_dim == "Cube" and params[0].sampler_array and \
                not name.startswith(("textureGather", "textureQuery")):
            # ARB_texture_cube_map_array: its functions in every GLSL version (gathers
            # and the LOD/levels queries come with their own extensions)
            exts = tuple(exts) + ("GL_ARB_texture_cube_map_array", "GL_OES_texture_cube_map_array",
                                  "GL_EXT_texture_cube_map_array")
        if params[0].sampler_dim == "Buffer":
            exts = tuple(exts) + ("GL_OES_texture_buffer", "GL_EXT_texture_buffer")   # GLSL ES 3.10
        if params[0].sampler_dim == "2DMS":
            exts = tuple(exts) + ("GL_ARB_texture_multisample",)   # its functions from GLSL 1.30
            if params[0].sampler_array:                 # GLSL ES 3.10 with the OES extension
                exts += ("GL_OES_texture_storage_multisample_2d_array",)
        out.append(BuiltinFunction(name, ret, tuple(("in", p) for p in params),
                                   Availability(d, e, stages=frozenset(stages), extensions=tuple(exts))))

    for s in _samplers():
        dim, arr, shadow = s.sampler_dim, s.sampler_array, s.sampler_shadow
        gvec4 = T.vector(s.sampled_base, 4)
        ret = T.FLOAT if shadow else gvec4
        cube_array_shadow = dim == "Cube" and arr and shadow
        P = T.vector(F, _coord_size(s))
        off = T.vector(I, _OFFSET[dim]) if dim in _OFFSET else None
        grad = T.vector(F, 3 if dim == "Cube" else _COORD[dim])
        es_ok = 300 if dim in ("2D", "3D", "Cube") else (310 if dim == "2DMS" and not arr else 0)
        size_dims = _COORD[dim] - (1 if dim == "Cube" else 0) + (1 if arr else 0)
        size_t = T.vector(I, size_dims)
        # textureSize
        if dim in ("Rect", "Buffer", "2DMS"):
            add("textureSize", size_t, [s], 140 if dim != "2DMS" else 150, es_ok)
        if dim == "2DMS":
            add("textureSamples", T.INT, [s], 450, 0, exts=("GL_ARB_shader_texture_image_samples",))
        else:
            add("textureSize", size_t, [s, T.INT], 130, es_ok)
        if dim in ("Buffer", "2DMS"):
            # texelFetch only
            if dim == "Buffer":
                add("texelFetch", gvec4, [s, T.INT], 140, 0)
            else:
                add("texelFetch", gvec4, [s, T.vector(I, 3 if arr else 2), T.INT], 150, es_ok)
            continue
        lod_ok = not (dim == "Rect")
        bias_ok = lod_ok and not cube_array_shadow
        # texture
        if cube_array_shadow:
            add("texture", ret, [s, P, T.FLOAT], 400, 0)
        else:
            add("texture", ret, [s, P], 130, es_ok)
            if bias_ok and not (shadow and arr and dim == "2D"):
                add("texture", ret, [s, P, T.FLOAT], 130, es_ok, {"fragment"})
        # textureProj
        if not arr and dim != "Cube":
            proj_sizes = [4] if shadow or dim == "3D" else [_COORD[dim] + 1, 4]
            for n in proj_sizes:
                add("textureProj", ret, [s, T.vector(F, n)], 130, es_ok)
                if lod_ok:
                    add("textureProj", ret, [s, T.vector(F, n), T.FLOAT], 130, es_ok, {"fragment"})
                    add("textureProjLod", ret, [s, T.vector(F, n), T.FLOAT], 130,
                        es_ok if dim != "Cube" else 0)
                if off is not None:
                    add("textureProjOffset", ret, [s, T.vector(F, n), off], 130, es_ok)
                    if lod_ok:
                        add("textureProjOffset", ret, [s, T.vector(F, n), off, T.FLOAT], 130, es_ok,
                            {"fragment"})
                        add("textureProjLodOffset", ret, [s, T.vector(F, n), T.FLOAT, off], 130, es_ok)
                add("textureProjGrad", ret, [s, T.vector(F, n), grad, grad], 130, es_ok)
                if off is not None:
                    add("textureProjGradOffset", ret, [s, T.vector(F, n), grad, grad, off], 130, es_ok)
        # textureLod
        if lod_ok and not cube_array_shadow and not (shadow and (dim == "Cube" or (arr and dim == "2D"))):
            add("textureLod", ret, [s, P, T.FLOAT], 130, es_ok)
        # EXT_texture_shadow_lod: the bias and LOD forms GLSL leaves out for array and cube
        # shadow samplers (the same tex/txb/txl with a comparator)
        if shadow and (arr or dim == "Cube") and dim in ("2D", "Cube"):
            sl = ("GL_EXT_texture_shadow_lod",)
            extra = [T.FLOAT] if cube_array_shadow else []       # the cube array's separate reference
            if arr:
                add("texture", ret, [s, P] + extra + [T.FLOAT], 0, 0, {"fragment"}, exts=sl)
            add("textureLod", ret, [s, P] + extra + [T.FLOAT], 0, 0, exts=sl)
            if dim == "2D":
                add("textureOffset", ret, [s, P, off, T.FLOAT], 0, 0, {"fragment"}, exts=sl)
                add("textureLodOffset", ret, [s, P, T.FLOAT, off], 0, 0, exts=sl)
        # textureOffset / textureLodOffset / texelFetch(Offset)
        if off is not None:
            add("textureOffset", ret, [s, P, off], 130, es_ok)
            if lod_ok and not (shadow and arr and dim == "2D"):
                add("textureOffset", ret, [s, P, off, T.FLOAT], 130, es_ok, {"fragment"})
                add("textureLodOffset", ret, [s, P, T.FLOAT, off], 130, es_ok)
            if not shadow:
                fetch_p = T.vector(I, _COORD[dim] + (1 if arr else 0))
                if dim == "Rect":
                    # from GLSL 1.30 where rectangle samplers exist (ARB_texture_rectangle,
                    # which desktop GLSL has on): Mesa takes them there too
                    add("texelFetch", gvec4, [s, fetch_p], 130, 0)
                    add("texelFetchOffset", gvec4, [s, fetch_p, off], 130, 0)
                else:
                    add("texelFetch", gvec4, [s, fetch_p, T.INT], 130, es_ok)
                    add("texelFetchOffset", gvec4, [s, fetch_p, T.INT, off], 130, es_ok)
        # textureGrad / textureGradOffset
        if not cube_array_shadow:
            add("textureGrad", ret, [s, P, grad, grad], 130, es_ok)
            if off is not None:
                add("textureGradOffset", ret, [s, P, grad, grad, off], 130, es_ok)
        # gather
        if dim in ("2D", "Cube", "Rect"):
            ges = 310 if es_ok and dim != "Rect" else 0
            # ARB_texture_gather: the component-0 form and the constant-offset form;
            # ARB_gpu_shader5: component selection, shadow comparison, non-constant
            # offsets and textureGatherOffsets (checked in the expression checker)
            g5 = ("GL_ARB_gpu_shader5",)
            if shadow:       # the reference is a parameter of its own: P is the coordinate alone
                P = T.vector(F, _COORD[dim] + (1 if arr else 0))
                add("textureGather", T.VEC4, [s, P, T.FLOAT], 400, ges, exts=g5)
            else:
                add("textureGather", gvec4, [s, P], 400, ges, exts=("GL_ARB_texture_gather",) + g5)
                add("textureGather", gvec4, [s, P, T.INT], 400, ges, exts=g5)
            if dim != "Cube":
                gp = [s, P, T.FLOAT] if shadow else [s, P]
                gr = T.VEC4 if shadow else gvec4
                add("textureGatherOffset", gr, gp + [T.IVEC2], 400, ges,
                    exts=g5 if shadow else ("GL_ARB_texture_gather",) + g5)
                add("textureGatherOffsets", gr, gp + [T.array_of(T.IVEC2, 4)], 400, 0, exts=g5)
                if not shadow:
                    add("textureGatherOffset", gr, gp + [T.IVEC2, T.INT], 400, ges, exts=g5)
                    add("textureGatherOffsets", gr, gp + [T.array_of(T.IVEC2, 4), T.INT], 400, 0, exts=g5)
        # queries
        if dim != "Rect":
            qp = T.vector(F, _COORD[dim]) if _COORD[dim] > 1 else T.FLOAT
            add("textureQueryLod", T.VEC2, [s, qp], 400, 0, {"fragment"})
            # ARB_texture_query_lod's name of it (the extension only; GLSL 4.00 renamed it)
            add("textureQueryLOD", T.VEC2, [s, qp], 0, 0, {"fragment"}, exts=("GL_ARB_texture_query_lod",))
            add("textureQueryLevels", T.INT, [s], 430, 0, exts=("GL_ARB_texture_query_levels",))
    return out


def _image_functions() -> list[BuiltinFunction]:
    out: list[BuiltinFunction] = []
    coord = {"1D": 1, "2D": 2, "3D": 3, "Cube": 3, "Rect": 2, "Buffer": 1, "2DMS": 2}
    for name in sorted(T.all_builtin_type_names()):
        img = T.lookup(name)
        if not img.is_image:
            continue
        dim, arr = img.sampler_dim, img.sampler_array
        n = coord[dim] + (1 if arr and dim != "Cube" else 0)
        if dim == "Cube" and arr:
            n = 3
        P = T.vector("int", n)
        ms = [T.INT] if dim == "2DMS" else []
        gvec4 = T.vector(img.sampled_base, 4)
        size_n = {"1D": 1, "Buffer": 1, "2D": 2, "Rect": 2, "Cube": 2, "2DMS": 2, "3D": 3}[dim] + \
            (1 if arr else 0)
        es = 310 if dim in ("2D", "3D", "Cube") else 0
        # GLSL ES 3.10: buffer images come with OES/EXT_texture_buffer
        buf_exts = ("GL_OES_texture_buffer", "GL_EXT_texture_buffer") if dim == "Buffer" else ()
        avail = Availability(420, es, extensions=("GL_ARB_shader_image_load_store",) + buf_exts)

        def add(fname, ret, params, a=avail):
            out.append(BuiltinFunction(fname, ret, tuple(("in", p) for p in params), a))

        add("imageSize", T.vector("int", size_n), [img],
            Availability(430, es, extensions=buf_exts + ("GL_ARB_shader_image_size",)))
        if dim == "2DMS":
            add("imageSamples", T.INT, [img],
                Availability(450, 0, extensions=("GL_ARB_shader_texture_image_samples",)))
        add("imageLoad", gvec4, [img, P] + ms)
        add("imageStore", T.VOID, [img, P] + ms + [gvec4])
        if img.sampled_base in ("int", "uint"):
            data = T.scalar(img.sampled_base)
            a = Availability(420, 0, extensions=("GL_ARB_shader_image_load_store", "GL_OES_shader_image_atomic"))
            for op in ("Add", "Min", "Max", "And", "Or", "Xor", "Exchange"):
                add(f"imageAtomic{op}", data, [img, P] + ms + [data], a)
            add("imageAtomicCompSwap", data, [img, P] + ms + [data, data], a)
        elif img.sampled_base == "float":
            # GLSL 4.50 (ARB_ES3_1_compatibility; ES only from 3.20): exchange on r32f images;
            # NV_shader_atomic_float: exchange and add wherever images are
            add("imageAtomicExchange", T.FLOAT, [img, P] + ms + [T.FLOAT],
                Availability(450, 0, extensions=("GL_OES_shader_image_atomic", "GL_NV_shader_atomic_float")))
            add("imageAtomicAdd", T.FLOAT, [img, P] + ms + [T.FLOAT],
                Availability(0, 0, extensions=("GL_NV_shader_atomic_float",)))
    return out


def _gpu_shader4_texture_functions(core: list[BuiltinFunction],
                                   existing: list[BuiltinFunction]) -> list[BuiltinFunction]:
    """EXT_gpu_shader4's texture functions for GLSL 1.10/1.20: the GLSL 1.30
    lookups under names that carry the sampler's shape (``texelFetch2D``,
    ``texture2DArrayLod``, ``shadow2DGradOffset``, ``textureSize1DArray``,
    integer-sampler ``texture2D``...), derived from the core overloads of the
    same operation. The ``shadow`` names return a vec4 as the GLSL 1.10 ones do.
    Overloads GLSL 1.10 already has under the same name are not repeated.
    ARB_shader_texture_lod's explicit-gradient names (``texture2DGradARB``,
    ``shadow2DProjGradARB``, ...: float samplers, no arrays) come from the same
    derivation with the ARB suffix."""
    shape = {"1D": "1D", "2D": "2D", "3D": "3D", "Cube": "Cube", "Rect": "2DRect", "Buffer": "Buffer"}
    have = {(f.name, tuple(p for _, p in f.params)) for f in existing}
    only_ext = ("GL_EXT_gpu_shader4",)
    out: list[BuiltinFunction] = []

    def add(name, ret, params, stages, exts=only_ext):
        key = (name, tuple(p for _, p in params))
        if key not in have:
            have.add(key)
            out.append(BuiltinFunction(name, ret, params, Availability(0, 0, stages=stages,
                                                                       extensions=exts)))

    for f in core:
        s = f.params[0][1]
        if s.sampler_dim not in shape or (s.sampler_dim == "Cube" and s.sampler_array):
            continue
        suffix = shape[s.sampler_dim] + ("Array" if s.sampler_array else "")
        ret, stages = f.return_type, f.availability.stages
        if f.name in ("textureSize", "texelFetch", "texelFetchOffset"):
            base = "textureSize" if f.name == "textureSize" else "texelFetch"
            add(base + suffix + f.name[len(base):], ret, f.params, stages)
            if f.name == "textureSize" and s.sampler_dim == "Rect":     # the spec's form has a lod
                add("textureSize2DRect", ret, f.params + (("in", T.INT),), stages)
        elif f.name.startswith("texture") and not f.name.startswith(("textureGather", "textureQuery",
                                                                       "textureSamples")):
            prefix = "shadow" if s.sampler_shadow else "texture"
            # EXT_texture_array's own lookups: texture1DArray/2DArray, shadow1DArray/2DArray and
            # their Lod forms, on float array samplers (Mesa: also in the fragment stage of 1.10)
            exts = only_ext + ("GL_EXT_texture_array",) if (
                s.sampler_array and s.sampled_base == "float" and f.name in ("texture", "textureLod")) \
                else only_ext
            add(prefix + suffix + f.name[len("texture"):], T.VEC4 if s.sampler_shadow else ret,
                f.params, stages, exts)
            if "Grad" in f.name and "Offset" not in f.name and not s.sampler_array \
                    and s.sampled_base == "float" and s.sampler_dim in ("1D", "2D", "3D", "Cube", "Rect") \
                    and not (s.sampler_dim == "Cube" and s.sampler_shadow):
                add(prefix + suffix + f.name[len("texture"):] + "ARB", T.VEC4 if s.sampler_shadow else ret,
                    f.params, stages, ("GL_ARB_shader_texture_lod",))
    return out


@lru_cache(maxsize=1)
def all_builtin_functions() -> tuple[BuiltinFunction, ...]:
    """Every overload of every version and stage (about 2,000)."""
    texture = _texture_functions()
    functions = _table_functions() + _matrix_shape_functions() + texture + _image_functions()
    return tuple(functions + _gpu_shader4_texture_functions(texture, functions) + _external_texture_functions())


def _types_available(f: BuiltinFunction, version: GLSLVersion, extensions) -> bool:
    names = T.builtin_type_names(version, extensions)
    for t in [f.return_type] + [p for _, p in f.params]:
        inner = t.innermost_element
        if inner.name not in names:
            return False
    return True


@lru_cache(maxsize=64)
def _signatures_cached(version: GLSLVersion, stage: str, extensions: frozenset) -> dict:
    table: dict[str, list[BuiltinFunction]] = {}
    for f in all_builtin_functions():
        if f.availability.available(version, stage, extensions) and _types_available(f, version, extensions):
            table.setdefault(f.name, []).append(f)
    return table


def builtin_functions(version: GLSLVersion, stage: str, extensions=()) -> dict[str, list[BuiltinFunction]]:
    """Name -> overloads available to one compilation."""
    return _signatures_cached(version, stage, frozenset(extensions))


def builtin_function_names(version: GLSLVersion, stage: str, extensions=()) -> set[str]:
    return set(builtin_functions(version, stage, extensions))
