// EXPECT: error: fragment shader writes to both gl_FragColor and gl_FragData
void main() {
    gl_FragColor = vec4(1.0);
    gl_FragData[0] = vec4(1.0);
}
