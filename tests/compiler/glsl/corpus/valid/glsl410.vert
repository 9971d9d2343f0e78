#version 410
layout(location = 0) in vec3 position;
layout(location = 2) out vec3 pos_out;
void main() {
    pos_out = position;
    vec2 p = unpackUnorm2x16(packUnorm2x16(position.xy));
    gl_Position = vec4(p, position.z, 1.0);
}
