#version 150
in VertexData {
    vec3 normal;
    flat int id;
} inData;
uniform sampler2DMS ms;
out vec4 color;

void main() {
    vec4 s = texelFetch(ms, ivec2(gl_FragCoord.xy), 1);
    color = vec4(inData.normal, float(inData.id) + float(gl_PrimitiveID)) * determinant(mat3(1.0)) + s;
    gl_FragDepth = 0.5;
}
