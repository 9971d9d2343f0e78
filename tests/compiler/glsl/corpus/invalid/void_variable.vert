// EXPECT: 0:3(10): error: variable `v' declared as type `void'
void main() {
    void v;
}
