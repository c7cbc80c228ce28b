/* standalone_main.c - replays files through LLVMFuzzerTestOneInput without
   libFuzzer, for ASan+UBSan builds with plain gcc. Each argument is a file
   or a directory (its regular files, not recursive). Prints how many inputs
   ran; a broken invariant or a sanitizer report aborts the process. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long n;
    if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "%s: cannot read\n", path);
        if (f) fclose(f);
        return 0;
    }
    /* an exact-size heap copy, so ASan sees any read past the input */
    buf = (uint8_t *)malloc(n > 0 ? (size_t)n : 1u);
    if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "%s: cannot read\n", path);
        free(buf);
        fclose(f);
        return 0;
    }
    fclose(f);
    fprintf(stderr, "%s\n", path); /* names the input a crash report belongs to */
    LLVMFuzzerTestOneInput(buf, (size_t)n);
    free(buf);
    return 1;
}

int main(int argc, char **argv)
{
    struct stat sb;
    struct dirent *e;
    char path[4096];
    DIR *dir;
    int i, runs = 0, bad = 0;
    for (i = 1; i < argc; i++) {
        if (stat(argv[i], &sb) != 0) {
            fprintf(stderr, "%s: not found\n", argv[i]);
            bad = 1;
        } else if (S_ISDIR(sb.st_mode)) {
            if ((dir = opendir(argv[i])) == NULL) { bad = 1; continue; }
            while ((e = readdir(dir)) != NULL) {
                snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
                if (e->d_name[0] == '.' || stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) continue;
                if (strcmp(e->d_name, "README.md") == 0) continue;
                if (run_file(path)) runs++; else bad = 1;
            }
            closedir(dir);
        } else if (run_file(argv[i])) {
            runs++;
        } else {
            bad = 1;
        }
    }
    printf("%d inputs\n", runs);
    return bad;
}
