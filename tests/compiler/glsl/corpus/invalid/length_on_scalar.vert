// EXPECT: 0:5(13): error: length called on scalar.
#version 120
void main() {
    float f;
    int n = f.length();
}
