#version 300 es
precision highp float;
uniform sampler2D height_map;
uniform mat4 mvp;
uniform float scale;
in vec2 grid;
out float v_height;
out vec3 v_normal;

float h(vec2 p) {
    return textureLod(height_map, p, 0.0).r * scale;
}

void main() {
    float e = 1.0 / 256.0;
    float c = h(grid);
    vec3 n = normalize(vec3(h(grid - vec2(e, 0.0)) - h(grid + vec2(e, 0.0)), 2.0 * e,
                            h(grid - vec2(0.0, e)) - h(grid + vec2(0.0, e))));
    v_height = c;
    v_normal = n;
    gl_Position = mvp * vec4(grid.x, c, grid.y, 1.0);
}
