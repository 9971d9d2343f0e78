#version 430 core
layout(location = 0) uniform mat4 mvp;
layout(location = 0) in vec4 position;
layout(binding = 2) uniform sampler2D heights;
out Varyings { vec4 p; } o;
void main() {
    float h = textureLod(heights, position.xy, 0.0).r + float(textureQueryLevels(heights));
    o.p = position;
    gl_Position = mvp * (position + vec4(0.0, h, 0.0, 0.0));
}
