#version 300 es
    in vec2 pos;
    in ivec2 cell;
    in uint level;
    flat out uint lv;
    void main() {
        gl_Position = vec4(pos + vec2(cell) * 0.5, 0.0, 1.0);
        lv = level + uint(gl_InstanceID);
    }