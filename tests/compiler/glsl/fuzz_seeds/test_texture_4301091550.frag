uniform sampler2DShadow s; varying vec4 p;
void main() { gl_FragColor = shadow2D(s, p.xyz); }
