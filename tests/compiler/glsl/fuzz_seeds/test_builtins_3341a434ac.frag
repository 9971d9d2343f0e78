uniform sampler2DRect r;
void main() { gl_FragColor = texture2DRect(r, vec2(1.0)); }
