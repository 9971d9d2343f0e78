void main() {
    gl_Position = ftransform();
    gl_PointSize = 12.0;
    gl_TexCoord[0] = vec4(0.9, 0.1, 0.0, 1.0);
    gl_TexCoord[1] = gl_MultiTexCoord1;
}