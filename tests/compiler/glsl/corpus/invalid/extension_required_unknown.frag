// EXPECT: 0:2(12): error: extension `GL_NV_nonexistent' unsupported in fragment shader
#extension GL_NV_nonexistent : require
void main() {}
