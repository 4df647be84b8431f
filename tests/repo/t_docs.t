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

# One default model, named the same everywhere (issue 15: nb_schedule(1)
# said "default 2, Northwood" while the tools and nbsim default to
# Prescott).  The parts and the default come from the code the tools and
# nbsim share (nb_evsel.c's nb_parts, NB_PART_DEFAULT); every man page
# that documents --model lists every part and says the default is that
# one; no document or help text calls another part the default.
my $evc = do { local (@ARGV, $/) = "$src/components/p4netburst/nb_evsel.c"; <> };
my %parts = $evc =~ /\{\s*"(\w+)",\s*(\d+),\s*[\w|]+\s*\},/g;
my ($default) = do { local (@ARGV, $/) = "$src/components/p4netburst/nb_evsel.h"; <> }
	=~ /#define\s+NB_PART_DEFAULT\s+"(\w+)"/;
ok(keys %parts >= 5 && defined $default && exists $parts{$default},
   "parts (" . join(',', sort keys %parts) . ") and the default ($default) read from the code");
my @man_model;
for my $m (glob("$src/man/*.1")) {
	my $t = do { local (@ARGV, $/) = $m; <> };
	(my $rel = $m) =~ s{^\Q$src\E/}{};
	next unless $t =~ /^\.BI \\-\\-model=[^\n]*\n(.*?)(?=^\.(?:TP|SH))/ms;
	my $para = $1;
	push @man_model, $rel;
	for my $p (sort keys %parts) {
		like($para, qr/\b$p\b/i, "$rel: --model lists $p");
	}
	like($para, qr/\b$default\b[^.;]{0,40}\bdefault\b/i, "$rel: --model's default is $default");
}
cmp_ok(scalar @man_model, '>=', 3, "man pages documenting --model: @man_model");
like(do { local (@ARGV, $/) = "$src/README.md"; <> }, qr/default model is `$default`/,
     "README names the default model ($default)");
my @said = ("$src/README.md", glob("$src/docs/*.md"), glob("$src/*/README.md"),
	    glob("$src/man/*.1"), "$src/sim/nbsim.sh", "$src/sim/tool/nb_opts.c",
	    glob("$src/utils/*.[ch]"));
for my $f (@said) {
	my $t = do { local (@ARGV, $/) = $f; <> };
	(my $rel = $f) =~ s{^\Q$src\E/}{};
	my @wrong;
	for my $p (grep { $_ ne $default } keys %parts) {
		my $n = $parts{$p};
		push @wrong, $1 while $t =~ /(\b$p\b[^,;.\n]{0,20}\bdefault\b|\bdefault\b[,:]?\s+(?:model\s+)?(?:$p|$n,\s*$p)\b)/gi;
	}
	ok(!@wrong, "$rel calls no other part than $default the default model") or diag("  @wrong");
}
done_testing();
