#version 330
layout(location = 0) in vec3 position;
layout(location = 3) in ivec4 joints;
uniform mat4 bones[32];
out vec2 uv;

void main() {
    mat4 skin = bones[joints.x] + bones[joints.y];
    uv = position.xy * 0.5 + 0.5;
    gl_Position = skin * vec4(position, 1.0);
}
