#version 330
in vec4 p;
out mat3 m;
out float arr[3];
out vec2 pair[2];
out float gl_ClipDistance[2];
void main() {
    gl_Position = p;
    m = mat3(p.xyz, p.yzw, p.zwx * 3.0);
    for (int i = 0; i < 3; i++) arr[i] = p.x + float(i);
    pair[0] = p.xy; pair[1] = p.zw * -1.0;
    gl_ClipDistance[0] = p.y - 0.5;
    gl_ClipDistance[1] = p.z;
}