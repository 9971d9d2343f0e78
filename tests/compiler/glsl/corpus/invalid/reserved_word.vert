// EXPECT: 0:3(11): error: illegal use of reserved word `class'
void main() {
    float class;
}
