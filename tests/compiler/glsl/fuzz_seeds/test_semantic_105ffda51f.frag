const int N = 2;
void main() { float a[N * 3 + 1]; }
