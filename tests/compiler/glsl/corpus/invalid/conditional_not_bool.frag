// EXPECT: 0:3(15): error: ?: condition must be scalar boolean
void main() {
    float f = 1 ? 1.0 : 2.0;
}
