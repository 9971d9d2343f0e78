// EXPECT: 0:2(11): error: opaque variables must be declared uniform
sampler2D s;
void main() {}
