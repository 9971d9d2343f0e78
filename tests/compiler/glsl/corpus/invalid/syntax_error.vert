// EXPECT: 0:4(1): error: syntax error, unexpected '}', expecting ',' or ';'
void main() {
    float x = 1.0
}
