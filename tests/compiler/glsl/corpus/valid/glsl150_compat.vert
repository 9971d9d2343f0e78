#version 150 compatibility
out VertexData {
    vec3 normal;
    flat int id;
} outData;

void main() {
    outData.normal = gl_Normal;
    outData.id = gl_VertexID;
    gl_Position = ftransform();
}
