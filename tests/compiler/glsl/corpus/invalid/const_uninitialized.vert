// EXPECT: 0:3(17): error: const declaration of `c' must be initialized
void main() {
    const float c;
}
