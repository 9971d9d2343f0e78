#version 310 es
#extension GL_OES_standard_derivatives : enable
void main(){}
