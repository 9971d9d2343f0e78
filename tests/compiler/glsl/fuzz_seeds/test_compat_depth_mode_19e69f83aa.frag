#version 120
uniform sampler2D t;
varying vec2 uv;
void main() { gl_FragColor = texture2D(t, uv); }