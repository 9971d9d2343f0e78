#version 310 es
    layout(local_size_x = 4, local_size_y = 4) in;
    layout(rgba8, binding = 0) writeonly uniform highp image2D img;
    void main(){ ivec2 p = ivec2(gl_GlobalInvocationID.xy);
                 imageStore(img, p, vec4(float(p.x) / 7.0, float(p.y) / 7.0, 0.5, 1.0)); }