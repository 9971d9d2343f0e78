// EXPECT: 0:5(1): error: function `level' return type precision doesn't match prototype
#version 100
precision mediump float;
lowp float level();
float level() { return 0.25; }
void main() { gl_FragColor = vec4(level()); }
