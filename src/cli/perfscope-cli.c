/* placeholder: replaced by the real CLI */
int main (void);
int main (void) { return 2; }
