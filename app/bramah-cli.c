/* TEMPORARY scaffold */
int main (void) { return 0; }
