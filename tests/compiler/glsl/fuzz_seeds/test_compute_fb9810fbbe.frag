#version 400
in vec4 c; out vec4 o;
void main() { o = c * float(gl_SampleID) + gl_FragCoord; }
