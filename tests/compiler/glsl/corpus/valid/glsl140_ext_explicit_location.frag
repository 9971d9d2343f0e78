#version 140
#extension GL_ARB_explicit_attrib_location : enable
#extension GL_ARB_separate_shader_objects : enable
layout(location = 1) in vec2 uv;
layout(location = 0) out vec4 color;
uniform sampler2DRect rect;

void main() {
    color = texture(rect, uv * vec2(textureSize(rect)));
}
