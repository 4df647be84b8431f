#!/usr/bin/perl
# The documents a clone has: every relative link in README.md and docs/*.md
# resolves inside the repository (README once linked ../shared/DESIGN.md,
# which a clone does not have), and every repository path that
# docs/ARCHITECTURE.md names in backticks exists (so the map stays true).
use strict;
use warnings;
use Test::More;
use Cwd ();

my $src = $ENV{NB_SRC} or BAIL_OUT('NB_SRC not set');
my @docs = ("$src/README.md", glob("$src/docs/*.md"), glob("$src/*/README.md"));
ok(-f "$src/docs/ARCHITECTURE.md", 'docs/ARCHITECTURE.md exists');
for my $f (@docs) {
	open my $fh, '<', $f or die "$f: $!";
	my $text = do { local $/; <$fh> };
	(my $dir = $f) =~ s{/[^/]+$}{};
	(my $rel = $f) =~ s{^\Q$src\E/}{};
	my @links = $text =~ /\]\(([^)#\s]+)(?:#[^)]*)?\)/g;
	for my $l (grep { !m{^[a-z]+://} } @links) {
		ok(-e "$dir/$l" && Cwd::abs_path("$dir/$l") =~ /^\Q${\Cwd::abs_path($src)}\E/,
		   "$rel links $l, inside the repository");
	}
}
like(do { local (@ARGV, $/) = "$src/README.md"; <> }, qr{\(docs/ARCHITECTURE\.md\)}, 'README links docs/ARCHITECTURE.md');
open my $a, '<', "$src/docs/ARCHITECTURE.md" or die;
my $arch = do { local $/; <$a> };
my %seen;
for my $p ($arch =~ /`((?:components|native_events|sim|utils|tests|ctests|ftests|patches|examples|docs|fuzz|bench)\/[\w.\/-]+)`/g) {
	next if $seen{$p}++;
	my $path = $p =~ s{/$}{}r;
	my @g = glob("$src/$path");
	ok(@g && -e $g[0], "ARCHITECTURE.md names $p, which exists");
}
cmp_ok(scalar keys %seen, '>=', 10, 'ARCHITECTURE.md names at least 10 files');
done_testing();
