#version 130
void main() {
 int n = 0;
 for (int i = 0; i < 4; ++i) { if (i == 2) continue; n += i; }
 while (n > 0) n--;
 do { n++; } while (n < 3);
 switch (n) { case 0: n = 1; break; case 1 + 2: break; default: break; }
}
