// EXPECT: 0:2(1): preprocessor error: #error unsupported configuration
#error unsupported configuration
void main() {}
