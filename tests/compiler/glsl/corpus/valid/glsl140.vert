#version 140
in vec4 position;
uniform Camera {
    mat4 view;
    mat4 projection;
};
layout(std140) uniform Material {
    vec4 albedo;
    layout(row_major) mat4 model;
} material;
uniform samplerBuffer offsets;
uniform sampler2DRect rect;
out vec4 c;

void main() {
    vec4 off = texelFetch(offsets, gl_InstanceID);
    c = material.albedo + texture(rect, vec2(1.0)) + vec4(textureSize(rect), 0, 0);
    gl_Position = projection * view * material.model * (position + off) * inverse(mat2(1.0))[0][0];
}
