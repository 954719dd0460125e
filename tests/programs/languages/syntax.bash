# A syntax error: there is no compile step (bash -n would reject valid extglob scripts), so
# the run fails.
echo "ok"
if then fi
