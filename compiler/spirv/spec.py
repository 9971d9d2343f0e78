"""The SPIR-V facts this front end reads: opcodes, enumerants and GLSL.std.450
instruction numbers (SPIR-V 1.6 specification, sections 3.x; GLSL.std.450
extended instruction set, revision 2). Written once here; the parser, the
translator and the tests derive from these tables.

``OPCODES``: opcode -> (name, has result type, has result id). An instruction
whose opcode is not listed is rejected with an error naming the opcode.
"""

from __future__ import annotations

__all__ = ["MAGIC", "MAX_VERSION", "OPCODES", "OP", "DECORATION", "BUILTIN", "STORAGE", "EXECUTION_MODEL",
           "EXECUTION_MODE", "EXECUTION_MODE_NAME", "EXTENSIONS", "CAPABILITIES", "GLSL_STD_450", "STRING_OPERAND", "DIM", "IMAGE_FORMAT"]

MAGIC = 0x07230203

#: the SPIR-V extensions (OpExtension) the front end implements: GL's SPIR_V_EXTENSIONS list
#: (ARB_spirv_extensions); a module using another is rejected. shader_draw_parameters: the
#: BaseVertex, BaseInstance and DrawIndex built-ins; storage_buffer_storage_class: blocks in
#: the StorageBuffer class; subgroup_vote: OpSubgroupAnyKHR / AllKHR / AllEqualKHR.
EXTENSIONS = ("SPV_KHR_shader_draw_parameters", "SPV_KHR_storage_buffer_storage_class", "SPV_KHR_subgroup_vote")
MAX_VERSION = 0x00010600            # SPIR-V 1.6

# (opcode, name, result type, result id)
_OPS = [
    (0, "Nop", 0, 0), (1, "Undef", 1, 1), (2, "SourceContinued", 0, 0), (3, "Source", 0, 0),
    (4, "SourceExtension", 0, 0), (5, "Name", 0, 0), (6, "MemberName", 0, 0), (7, "String", 0, 1),
    (8, "Line", 0, 0), (10, "Extension", 0, 0), (11, "ExtInstImport", 0, 1), (12, "ExtInst", 1, 1),
    (14, "MemoryModel", 0, 0), (15, "EntryPoint", 0, 0), (16, "ExecutionMode", 0, 0), (17, "Capability", 0, 0),
    (19, "TypeVoid", 0, 1), (20, "TypeBool", 0, 1), (21, "TypeInt", 0, 1), (22, "TypeFloat", 0, 1),
    (23, "TypeVector", 0, 1), (24, "TypeMatrix", 0, 1), (25, "TypeImage", 0, 1), (26, "TypeSampler", 0, 1),
    (27, "TypeSampledImage", 0, 1), (28, "TypeArray", 0, 1), (29, "TypeRuntimeArray", 0, 1),
    (30, "TypeStruct", 0, 1), (32, "TypePointer", 0, 1), (33, "TypeFunction", 0, 1),
    (41, "ConstantTrue", 1, 1), (42, "ConstantFalse", 1, 1), (43, "Constant", 1, 1),
    (44, "ConstantComposite", 1, 1), (46, "ConstantNull", 1, 1), (48, "SpecConstantTrue", 1, 1),
    (49, "SpecConstantFalse", 1, 1), (50, "SpecConstant", 1, 1), (51, "SpecConstantComposite", 1, 1),
    (52, "SpecConstantOp", 1, 1), (54, "Function", 1, 1), (55, "FunctionParameter", 1, 1),
    (56, "FunctionEnd", 0, 0), (57, "FunctionCall", 1, 1), (59, "Variable", 1, 1),
    (60, "ImageTexelPointer", 1, 1), (61, "Load", 1, 1), (62, "Store", 0, 0), (63, "CopyMemory", 0, 0),
    (65, "AccessChain", 1, 1), (66, "InBoundsAccessChain", 1, 1), (68, "ArrayLength", 1, 1),
    (71, "Decorate", 0, 0), (72, "MemberDecorate", 0, 0), (73, "DecorationGroup", 0, 1),
    (74, "GroupDecorate", 0, 0), (75, "GroupMemberDecorate", 0, 0),
    (77, "VectorExtractDynamic", 1, 1), (78, "VectorInsertDynamic", 1, 1), (79, "VectorShuffle", 1, 1),
    (80, "CompositeConstruct", 1, 1), (81, "CompositeExtract", 1, 1), (82, "CompositeInsert", 1, 1),
    (83, "CopyObject", 1, 1), (84, "Transpose", 1, 1), (86, "SampledImage", 1, 1),
    (87, "ImageSampleImplicitLod", 1, 1), (88, "ImageSampleExplicitLod", 1, 1),
    (89, "ImageSampleDrefImplicitLod", 1, 1), (90, "ImageSampleDrefExplicitLod", 1, 1),
    (91, "ImageSampleProjImplicitLod", 1, 1), (92, "ImageSampleProjExplicitLod", 1, 1),
    (95, "ImageFetch", 1, 1), (96, "ImageGather", 1, 1), (97, "ImageDrefGather", 1, 1), (98, "ImageRead", 1, 1), (99, "ImageWrite", 0, 0),
    (100, "Image", 1, 1), (103, "ImageQuerySizeLod", 1, 1), (104, "ImageQuerySize", 1, 1),
    (106, "ImageQueryLevels", 1, 1), (107, "ImageQuerySamples", 1, 1),
    (109, "ConvertFToU", 1, 1), (110, "ConvertFToS", 1, 1), (111, "ConvertSToF", 1, 1),
    (112, "ConvertUToF", 1, 1), (113, "UConvert", 1, 1), (114, "SConvert", 1, 1), (115, "FConvert", 1, 1),
    (124, "Bitcast", 1, 1), (126, "SNegate", 1, 1), (127, "FNegate", 1, 1), (128, "IAdd", 1, 1),
    (129, "FAdd", 1, 1), (130, "ISub", 1, 1), (131, "FSub", 1, 1), (132, "IMul", 1, 1), (133, "FMul", 1, 1),
    (134, "UDiv", 1, 1), (135, "SDiv", 1, 1), (136, "FDiv", 1, 1), (137, "UMod", 1, 1), (138, "SRem", 1, 1),
    (139, "SMod", 1, 1), (140, "FRem", 1, 1), (141, "FMod", 1, 1), (142, "VectorTimesScalar", 1, 1),
    (143, "MatrixTimesScalar", 1, 1), (144, "VectorTimesMatrix", 1, 1), (145, "MatrixTimesVector", 1, 1),
    (146, "MatrixTimesMatrix", 1, 1), (147, "OuterProduct", 1, 1), (148, "Dot", 1, 1),
    (154, "Any", 1, 1), (155, "All", 1, 1), (156, "IsNan", 1, 1), (157, "IsInf", 1, 1),
    (164, "LogicalEqual", 1, 1), (165, "LogicalNotEqual", 1, 1), (166, "LogicalOr", 1, 1),
    (167, "LogicalAnd", 1, 1), (168, "LogicalNot", 1, 1), (169, "Select", 1, 1), (170, "IEqual", 1, 1),
    (171, "INotEqual", 1, 1), (172, "UGreaterThan", 1, 1), (173, "SGreaterThan", 1, 1),
    (174, "UGreaterThanEqual", 1, 1), (175, "SGreaterThanEqual", 1, 1), (176, "ULessThan", 1, 1),
    (177, "SLessThan", 1, 1), (178, "ULessThanEqual", 1, 1), (179, "SLessThanEqual", 1, 1),
    (180, "FOrdEqual", 1, 1), (181, "FUnordEqual", 1, 1), (182, "FOrdNotEqual", 1, 1),
    (183, "FUnordNotEqual", 1, 1), (184, "FOrdLessThan", 1, 1), (185, "FUnordLessThan", 1, 1),
    (186, "FOrdGreaterThan", 1, 1), (187, "FUnordGreaterThan", 1, 1), (188, "FOrdLessThanEqual", 1, 1),
    (189, "FUnordLessThanEqual", 1, 1), (190, "FOrdGreaterThanEqual", 1, 1),
    (191, "FUnordGreaterThanEqual", 1, 1), (194, "ShiftRightLogical", 1, 1),
    (195, "ShiftRightArithmetic", 1, 1), (196, "ShiftLeftLogical", 1, 1), (197, "BitwiseOr", 1, 1),
    (198, "BitwiseXor", 1, 1), (199, "BitwiseAnd", 1, 1), (200, "Not", 1, 1), (201, "BitFieldInsert", 1, 1),
    (202, "BitFieldSExtract", 1, 1), (203, "BitFieldUExtract", 1, 1), (204, "BitReverse", 1, 1),
    (205, "BitCount", 1, 1), (207, "DPdx", 1, 1), (208, "DPdy", 1, 1), (209, "Fwidth", 1, 1),
    (210, "DPdxFine", 1, 1), (211, "DPdyFine", 1, 1), (212, "FwidthFine", 1, 1), (213, "DPdxCoarse", 1, 1),
    (214, "DPdyCoarse", 1, 1), (215, "FwidthCoarse", 1, 1), (218, "EmitVertex", 0, 0),
    (219, "EndPrimitive", 0, 0), (220, "EmitStreamVertex", 0, 0), (221, "EndStreamPrimitive", 0, 0),
    (224, "ControlBarrier", 0, 0),
    (225, "MemoryBarrier", 0, 0), (227, "AtomicLoad", 1, 1), (228, "AtomicStore", 0, 0),
    (229, "AtomicExchange", 1, 1), (230, "AtomicCompareExchange", 1, 1), (232, "AtomicIIncrement", 1, 1),
    (233, "AtomicIDecrement", 1, 1), (234, "AtomicIAdd", 1, 1), (235, "AtomicISub", 1, 1),
    (236, "AtomicSMin", 1, 1), (237, "AtomicUMin", 1, 1), (238, "AtomicSMax", 1, 1), (239, "AtomicUMax", 1, 1),
    (240, "AtomicAnd", 1, 1), (241, "AtomicOr", 1, 1), (242, "AtomicXor", 1, 1), (245, "Phi", 1, 1),
    (246, "LoopMerge", 0, 0), (247, "SelectionMerge", 0, 0), (248, "Label", 0, 1), (249, "Branch", 0, 0),
    (250, "BranchConditional", 0, 0), (251, "Switch", 0, 0), (252, "Kill", 0, 0), (253, "Return", 0, 0),
    (254, "ReturnValue", 0, 0), (255, "Unreachable", 0, 0), (317, "NoLine", 0, 0),
    (330, "ModuleProcessed", 0, 0), (331, "ExecutionModeId", 0, 0), (332, "DecorateId", 0, 0),
    (4416, "TerminateInvocation", 0, 0), (4428, "SubgroupAllKHR", 1, 1), (4429, "SubgroupAnyKHR", 1, 1),
    (4430, "SubgroupAllEqualKHR", 1, 1), (5632, "DecorateString", 0, 0), (5633, "MemberDecorateString", 0, 0),
]
OPCODES: dict[int, tuple[str, bool, bool]] = {code: (name, bool(t), bool(r)) for code, name, t, r in _OPS}
OP: dict[str, int] = {name: code for code, name, _t, _r in _OPS}

#: opcodes with literal strings: name -> index of the first string operand word (after type/result)
STRING_OPERAND = {"Name": 1, "MemberName": 2, "EntryPoint": 2, "ExtInstImport": 0, "String": 0,
                  "Extension": 0, "SourceExtension": 0, "ModuleProcessed": 0}

DECORATION = {"RelaxedPrecision": 0, "SpecId": 1, "Block": 2, "BufferBlock": 3, "RowMajor": 4, "ColMajor": 5,
              "ArrayStride": 6, "MatrixStride": 7, "GLSLShared": 8, "GLSLPacked": 9, "BuiltIn": 11,
              "NoPerspective": 13, "Flat": 14, "Patch": 15, "Centroid": 16, "Sample": 17, "Invariant": 18,
              "Restrict": 19, "Aliased": 20, "Volatile": 21, "Coherent": 23, "NonWritable": 24,
              "NonReadable": 25, "Location": 30, "Component": 31, "Index": 32, "Binding": 33,
              "DescriptorSet": 34, "Offset": 35, "XfbBuffer": 36, "XfbStride": 37, "NoContraction": 42,
              "Stream": 29}
DECORATION_NAME = {v: k for k, v in DECORATION.items()}

BUILTIN = {"Position": 0, "PointSize": 1, "ClipDistance": 3, "CullDistance": 4, "VertexId": 5, "InstanceId": 6,
           "PrimitiveId": 7, "InvocationId": 8, "Layer": 9, "ViewportIndex": 10, "TessLevelOuter": 11,
           "TessLevelInner": 12, "TessCoord": 13, "PatchVertices": 14, "FragCoord": 15,
           "PointCoord": 16, "FrontFacing": 17, "SampleId": 18, "SamplePosition": 19, "SampleMask": 20,
           "FragDepth": 22, "HelperInvocation": 23, "NumWorkgroups": 24, "WorkgroupSize": 25,
           "WorkgroupId": 26, "LocalInvocationId": 27, "GlobalInvocationId": 28, "LocalInvocationIndex": 29,
           "VertexIndex": 42, "InstanceIndex": 43, "BaseVertex": 4424, "BaseInstance": 4425, "DrawIndex": 4426}
BUILTIN_NAME = {v: k for k, v in BUILTIN.items()}

STORAGE = {"UniformConstant": 0, "Input": 1, "Uniform": 2, "Output": 3, "Workgroup": 4, "CrossWorkgroup": 5,
           "Private": 6, "Function": 7, "Generic": 8, "PushConstant": 9, "AtomicCounter": 10, "Image": 11,
           "StorageBuffer": 12}
STORAGE_NAME = {v: k for k, v in STORAGE.items()}

EXECUTION_MODEL = {"Vertex": 0, "TessellationControl": 1, "TessellationEvaluation": 2, "Geometry": 3,
                   "Fragment": 4, "GLCompute": 5, "Kernel": 6}
EXECUTION_MODEL_NAME = {v: k for k, v in EXECUTION_MODEL.items()}

EXECUTION_MODE = {"Invocations": 0, "SpacingEqual": 1, "SpacingFractionalEven": 2, "SpacingFractionalOdd": 3,
                  "VertexOrderCw": 4, "VertexOrderCcw": 5, "OriginUpperLeft": 7, "OriginLowerLeft": 8,
                  "EarlyFragmentTests": 9, "PointMode": 10, "DepthReplacing": 12, "DepthGreater": 14,
                  "DepthLess": 15, "DepthUnchanged": 16, "LocalSize": 17, "InputPoints": 19, "InputLines": 20,
                  "InputLinesAdjacency": 21, "Triangles": 22, "InputTrianglesAdjacency": 23, "Quads": 24,
                  "Isolines": 25, "OutputVertices": 26, "OutputPoints": 27, "OutputLineStrip": 28,
                  "OutputTriangleStrip": 29}
EXECUTION_MODE_NAME = {v: k for k, v in EXECUTION_MODE.items()}

#: OpCapability operands the front end implements (SPIR-V 1.6 section 3.31), those ARB_gl_spirv
#: requires of a GL 4.6 implementation and the listed extensions'; a module declaring another
#: (Int8, Float16, the 8/16-bit storage ones, Int64Atomics, SparseResidency, MinLod,
#: StorageImageReadWithoutFormat, VariablePointers, SubgroupBallotKHR, Kernel, ...) is rejected
CAPABILITIES = {
    "Matrix": 0, "Shader": 1, "Geometry": 2, "Tessellation": 3, "Float64": 10, "Int64": 11, "AtomicStorage": 21,
    "TessellationPointSize": 23, "GeometryPointSize": 24, "ImageGatherExtended": 25, "StorageImageMultisample": 27,
    "UniformBufferArrayDynamicIndexing": 28, "SampledImageArrayDynamicIndexing": 29,
    "StorageBufferArrayDynamicIndexing": 30, "StorageImageArrayDynamicIndexing": 31, "ClipDistance": 32,
    "CullDistance": 33, "ImageCubeArray": 34, "SampleRateShading": 35, "ImageRect": 36, "SampledRect": 37,
    "Sampled1D": 43, "Image1D": 44, "SampledCubeArray": 45, "SampledBuffer": 46, "ImageBuffer": 47,
    "ImageMSArray": 48, "StorageImageExtendedFormats": 49, "ImageQuery": 50, "DerivativeControl": 51,
    "InterpolationFunction": 52, "TransformFeedback": 53, "GeometryStreams": 54,
    "StorageImageWriteWithoutFormat": 56, "MultiViewport": 57, "DrawParameters": 4427, "SubgroupVoteKHR": 4431}
CAPABILITY_NAME = {v: k for k, v in CAPABILITIES.items()}

#: OpTypeImage's Dim operand
DIM = {0: "1D", 1: "2D", 2: "3D", 3: "Cube", 4: "Rect", 5: "Buffer", 6: "SubpassData"}

GLSL_STD_450 = {
    1: "Round", 2: "RoundEven", 3: "Trunc", 4: "FAbs", 5: "SAbs", 6: "FSign", 7: "SSign", 8: "Floor", 9: "Ceil",
    10: "Fract", 11: "Radians", 12: "Degrees", 13: "Sin", 14: "Cos", 15: "Tan", 16: "Asin", 17: "Acos",
    18: "Atan", 19: "Sinh", 20: "Cosh", 21: "Tanh", 22: "Asinh", 23: "Acosh", 24: "Atanh", 25: "Atan2",
    26: "Pow", 27: "Exp", 28: "Log", 29: "Exp2", 30: "Log2", 31: "Sqrt", 32: "InverseSqrt", 33: "Determinant",
    34: "MatrixInverse", 35: "Modf", 36: "ModfStruct", 37: "FMin", 38: "UMin", 39: "SMin", 40: "FMax",
    41: "UMax", 42: "SMax", 43: "FClamp", 44: "UClamp", 45: "SClamp", 46: "FMix", 47: "IMix", 48: "Step",
    49: "SmoothStep", 50: "Fma", 51: "Frexp", 52: "FrexpStruct", 53: "Ldexp", 54: "PackSnorm4x8",
    55: "PackUnorm4x8", 56: "PackSnorm2x16", 57: "PackUnorm2x16", 58: "PackHalf2x16", 59: "PackDouble2x32",
    60: "UnpackSnorm2x16", 61: "UnpackUnorm2x16", 62: "UnpackHalf2x16", 63: "UnpackSnorm4x8",
    64: "UnpackUnorm4x8", 65: "UnpackDouble2x32", 66: "Length", 67: "Distance", 68: "Cross", 69: "Normalize",
    70: "FaceForward", 71: "Reflect", 72: "Refract", 73: "FindILsb", 74: "FindSMsb", 75: "FindUMsb",
    76: "InterpolateAtCentroid", 77: "InterpolateAtSample", 78: "InterpolateAtOffset", 79: "NMin", 80: "NMax",
    81: "NClamp"}

#: OpTypeImage's Image Format operand -> the GLSL format layout qualifier (0: Unknown)
IMAGE_FORMAT = {1: "rgba32f", 2: "rgba16f", 3: "r32f", 4: "rgba8", 5: "rgba8_snorm", 6: "rg32f", 7: "rg16f",
                8: "r11f_g11f_b10f", 9: "r16f", 10: "rgba16", 11: "rgb10_a2", 12: "rg16", 13: "rg8", 14: "r16",
                15: "r8", 16: "rgba16_snorm", 17: "rg16_snorm", 18: "rg8_snorm", 19: "r16_snorm", 20: "r8_snorm",
                21: "rgba32i", 22: "rgba16i", 23: "rgba8i", 24: "r32i", 25: "rg32i", 26: "rg16i", 27: "rg8i",
                28: "r16i", 29: "r8i", 30: "rgba32ui", 31: "rgba16ui", 32: "rgba8ui", 33: "r32ui", 34: "rgb10_a2ui",
                35: "rg32ui", 36: "rg16ui", 37: "rg8ui", 38: "r16ui", 39: "r8ui"}
