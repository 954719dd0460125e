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
	s=x
	while :; do s=$s$s; done
	;;
esac
