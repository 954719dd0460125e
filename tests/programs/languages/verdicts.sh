# The first line of the input says what to do: ac, re, tle or mle.
read -r mode
case "$mode" in
ac)
	# A pipeline and a command substitution: bash forks for both.
	word=$(printf 'ko\n' | rev)
	echo "$word" | cat
	;;
re)
	echo "contestant bug" >&2
	exit 3
	;;
tle)
	while :; do :; done
	;;
mle)
	# tail keeps the last 400 MB of an endless pipe: past the 256 MiB limit in about 0.25 s of
	# CPU. (Doubling a bash string needs about 1 s of CPU to reach the limit: TLE or MLE by
	# the machine's speed on the polling path.)
	exec tail -c 400000000 < <(exec cat /dev/zero)
	;;
esac
