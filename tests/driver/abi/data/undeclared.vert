// [config]
// expect_result: fail
// glsl_version: 1.10
// [end config]
//
// shimgl ABI test: glslparsertest must see the compile error (info log through the ABI).
void main()
{
	gl_Position = vec4(undeclared_variable);
}
