#version 300 es
#extension GL_APPLE_clip_distance : require
in vec2 pos;
void main() {
    gl_Position = vec4(pos, 0.0, 1.0);
    gl_ClipDistance[0] = pos.x;          /* keeps x >= 0: the right half */
}