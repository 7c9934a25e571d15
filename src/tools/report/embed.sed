# A text file as C string literals, one a line: backslashes and quotes
# escaped, each line ending in \n.
s/\\/\\\\/g
s/"/\\"/g
s/^/"/
s/$/\\n"/
