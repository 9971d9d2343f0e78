// EXPECT: 0:5(5): error: image variable `img' is readonly; imageStore is not allowed
#version 420
layout(rgba8) readonly uniform image2D img;
void main() {
    imageStore(img, ivec2(0), vec4(1.0));
}
