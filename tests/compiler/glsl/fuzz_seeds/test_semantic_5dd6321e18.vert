#version 150
in vec4 p;
out gl_PerVertex {
    vec4 gl_Position;
    float gl_ClipDistance[2];
};
void main() { gl_Position = p; gl_ClipDistance[1] = p.x; }
