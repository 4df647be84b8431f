#!/usr/bin/perl
# t_sim_layers.t - nbsim's folders keep their layering (issue 28):
# front-ends (sim/kernel/) -> the valgrind tool (sim/tool/) -> pure models
# (sim/pmu/, sim/cpu/, sim/timing/).  From the #include lines of
# sim/*/*.[ch]:
#  - no file of a pure folder includes a header of tool/ or kernel/, nor
#    valgrind's pub_tool_*.h or libvex*.h (a pure module runs natively in
#    the unit tests, without valgrind);
#  - the folders' include graph has no circle (a file of tool/ including a
#    kernel/ header while kernel/ includes tool/'s is one).
# Inside sim/timing/, the clock (issue 28): the model (nb_timing.c) knows
# neither of the optimisations built on it, the replay (nb_tmmemo.c) and
# the sampled clock (nb_tmsample.c); they call down into it:
#  - the call graph among the clock's objects (sim/timing/*.o and
#    sim/tool/nb_step.o and nb_cycles.o of the tool's build, from nm: an undefined symbol
#    that another object defines is an edge) has no circle, and
#    nb_timing.o calls nothing of nb_tmmemo.o or nb_tmsample.o, and step
#    mode (nb_step.o) nothing of the clock above it (nb_cycles.o);
#  - nb_timing.c and nb_timing.h name no nb_tms_* or nb_tm_memo_* function
#    and touch neither t->memo nor t->smp (their code, comments aside);
#  - the include graph of sim/timing's files (a .c and its .h one node)
#    has no circle.
# The tool's modules (sim/tool/*.o) and the emulated kernel's
# (sim/kernel/*.o), nm: each calls downward, with no circle.
# The checkers are run first on planted trees and symbol tables (a pure
# file including the tool's header, a circle between two folders, a model
# calling its sampler) and must report them.
use strict;
use warnings;
use File::Temp qw(tempdir);
use File::Path qw(make_path);
use Test::More;

my $src = $ENV{NB_SRC} or BAIL_OUT('NB_SRC not set');
my @PURE = qw(pmu cpu timing);
my @FOLDERS = (@PURE, qw(tool kernel));

# The folder of each sim header by name, for includes that name a header
# without its folder: any such include of another folder's header counts
# as an include of that folder, whether or not an -I would find it.
sub scan {
	my ($sim) = @_;
	my (%owner, @files);
	for my $d (@FOLDERS) {
		for my $f (glob("$sim/$d/*.[ch]")) {
			(my $b = $f) =~ s{.*/}{};
			$owner{$b} //= $d if $f =~ /\.h$/;
			push @files, [$d, $b, $f];
		}
	}
	$owner{$_ =~ s{.*/}{}r} //= 'sim' for glob("$sim/*.h");
	my (%edge, @bad, $n);
	for my $fi (@files) {
		my ($d, $b, $f) = @$fi;
		open my $fh, '<', $f or die "$f: $!";
		while (my $l = <$fh>) {
			next unless $l =~ /^\s*#\s*include\s*([<"])([^">]+)[">]/;
			my ($kind, $inc) = ($1, $2);
			$n++;
			my $to;
			if ($inc =~ m{^(?:pub_tool_|libvex)}) {
				$to = 'valgrind';
			} elsif ($kind eq '"' && $inc =~ m{^(?:\.\./)?(\w+)/[\w.]+$} && -d "$sim/$1") {
				$to = $1;
			} elsif ($kind eq '"' && -e "$sim/$d/$inc") {
				$to = $d;
			} elsif ($kind eq '"' && $owner{$inc}) {
				$to = $owner{$inc};
			}
			next unless defined $to;
			if (grep { $_ eq $d } @PURE and grep { $_ eq $to } qw(tool kernel valgrind)) {
				push @bad, "$d/$b includes $inc ($to)";
			}
			$edge{$d}{$to} = "$d/$b: $inc" if $to ne $d && $to ne 'valgrind';
		}
	}
	return (\%edge, \@bad, $n // 0, scalar @files);
}

# Circles of the folder graph: every back edge of a depth-first search.
sub circles {
	my ($edge) = @_;
	my (%state, @found, @path);
	my $dfs;
	$dfs = sub {
		my ($v) = @_;
		$state{$v} = 1;
		push @path, $v;
		for my $w (sort keys %{ $edge->{$v} // {} }) {
			if (($state{$w} // 0) == 1) {
				my @c = @path;
				shift @c while $c[0] ne $w;
				push @found, join(' -> ', @c, $w) . " (" .
				    join('; ', map { $edge->{$c[$_]}{$c[$_ + 1] // $w} } 0 .. $#c) . ")";
			} elsif (!$state{$w}) {
				$dfs->($w);
			}
		}
		pop @path;
		$state{$v} = 2;
	};
	$dfs->($_) for sort keys %$edge;
	return @found;
}

# the checker on planted trees
my $tmp = tempdir(CLEANUP => 1);
sub plant {
	my ($name, %files) = @_;
	my $root = "$tmp/$name";
	for my $p (keys %files) {
		(my $dir = "$root/$p") =~ s{/[^/]+$}{};
		make_path($dir);
		open my $fh, '>', "$root/$p" or die;
		print $fh $files{$p};
		close $fh;
	}
	return $root;
}
{
	my $r = plant('up', 'tool/nb_tool.h' => "#include \"pmu/pmu.h\"\n",
		      'pmu/pmu.h' => "#include <stdint.h>\n",
		      'pmu/pmu.c' => "#include \"pmu.h\"\n#include \"tool/nb_tool.h\"\n",
		      'cpu/nb_cpu.c' => "#include \"nb_tool.h\"\n",
		      'timing/nb_timing.c' => "#include \"pub_tool_basics.h\"\n");
	my ($e, $bad) = scan($r);
	is(scalar @$bad, 3, 'planted: a pure file including tool/nb_tool.h (by path, by name) or pub_tool_*.h is caught')
		or diag(explain($bad));
	my ($e2, $bad2) = scan(plant('ok', 'tool/nb_tool.h' => "#include \"pmu/pmu.h\"\n",
				     'pmu/pmu.h' => "#include \"nb_events.h\"\n"));
	is(scalar @$bad2, 0, 'planted: tool including pmu/ is allowed');
	my ($e3) = scan(plant('circle', 'tool/nb_tool.h' => "#include \"kernel/nb_kern.h\"\n",
			      'kernel/nb_kern.h' => "#include \"tool/nb_tool.h\"\n"));
	my @c = circles($e3);
	is(scalar @c, 1, 'planted: a circle tool <-> kernel is caught') or diag(explain(\@c));
	my ($e4) = scan(plant('chain', 'kernel/nb_kern.h' => "#include \"tool/nb_tool.h\"\n",
			      'tool/nb_tool.h' => "#include \"timing/nb_timing.h\"\n",
			      'timing/nb_timing.h' => "#include \"cpu/nb_idecode.h\"\n",
			      'cpu/nb_idecode.h' => "#include <stdint.h>\n"));
	is(scalar(circles($e4)), 0, 'planted: a chain kernel -> tool -> timing -> cpu has no circle');
}

# the tree
my $sim = "$src/sim";
ok(-d "$sim/$_", "sim/$_/ exists") for @FOLDERS;
my ($edge, $bad, $n, $nfiles) = scan($sim);
cmp_ok($nfiles, '>=', 40, "$nfiles source files in sim's folders");
cmp_ok($n, '>=', 60, "$n #include lines read");
ok(!@$bad, 'no file of pmu/, cpu/ or timing/ includes a tool/ or kernel/ header or valgrind\'s')
	or diag(join("\n", @$bad));
my @c = circles($edge);
ok(!@c, 'the folders\' include graph has no circle') or diag(join("\n", @c));
ok($edge->{tool}{pmu} && $edge->{tool}{cpu} && $edge->{tool}{timing} && $edge->{kernel}{tool},
   'the graph has the expected edges (tool -> pmu, cpu, timing; kernel -> tool)')
	or diag(explain($edge));
diag(join(', ', map { my $f = $_; map { "$f -> $_" } sort keys %{ $edge->{$f} } } sort keys %$edge));

# ---- the clock's call graph (nm) and the model's own text ----

# edges of the call graph of objects: {obj => {defined => [syms], undef => [syms]}}
sub call_edges {
	my ($objs) = @_;
	my (%def, %edge);
	for my $o (keys %$objs) {
		$def{$_} = $o for @{ $objs->{$o}{defined} };
	}
	for my $o (keys %$objs) {
		for my $u (@{ $objs->{$o}{undef} }) {
			my $to = $def{$u};
			next unless defined $to && $to ne $o;
			$edge{$o}{$to} = $edge{$o}{$to} ? "$edge{$o}{$to}, $u" : "$o calls $u";
		}
	}
	return \%edge;
}

sub nm_syms {
	my ($f) = @_;
	my (@d, @u);
	open my $nm, '-|', 'nm', $f or die "nm $f: $!";
	while (<$nm>) {
		if (/^\s+U\s+(\S+)/) { push @u, $1 }
		elsif (/^[0-9a-f]+\s+[TDBR]\s+(\S+)/) { push @d, $1 }
	}
	close $nm;
	return { defined => \@d, undef => \@u };
}

# the code of a C file without its comments and strings
sub code_of {
	my ($f) = @_;
	open my $fh, '<', $f or die "$f: $!";
	local $/;
	my $c = <$fh>;
	$c =~ s{/\*.*?\*/}{ }gs;
	$c =~ s{//[^\n]*}{}g;
	$c =~ s{"(?:\\.|[^"\\])*"}{""}g;
	return $c;
}

# what the model's code names of the optimisations above it
sub model_upward {
	my ($code) = @_;
	my %seen;
	$seen{$1} = 1 while $code =~ /\b(nb_tms_\w+|nb_tm_memo_\w+|nb_tm_run_sampled|nb_tm_seg_sampled)\b/g;
	$seen{$1} = 1 while $code =~ /(->\s*(?:memo|smp)\b)/g;
	return sort keys %seen;
}

# the include graph of one folder's files, a .c and its .h one node
sub include_edges {
	my ($dir) = @_;
	my %edge;
	for my $f (glob("$dir/*.[ch]")) {
		(my $n = $f) =~ s{.*/|\.[ch]$}{}g;
		open my $fh, '<', $f or die "$f: $!";
		while (<$fh>) {
			next unless /^\s*#\s*include\s*"([\w.\/]+)\.h"/;
			(my $to = $1) =~ s{.*/}{};
			$edge{$n}{$to} = "$f includes $1.h" if $to ne $n && -e "$dir/$to.h";
		}
	}
	return \%edge;
}

{
	my $e = call_edges({
		'nb_timing.o' => { defined => [qw(nb_tm_walk nb_tm_serialize)], undef => [qw(nb_tms_close memset)] },
		'nb_tmsample.o' => { defined => [qw(nb_tms_close)], undef => [qw(nb_tm_walk)] },
	});
	is(scalar(circles($e)), 1, 'planted: a model calling its sampler, which calls the model, is a circle');
	my $e2 = call_edges({
		'nb_timing.o' => { defined => [qw(nb_tm_walk)], undef => [qw(memset)] },
		'nb_tmmemo.o' => { defined => [qw(nb_tm_run nb_tm_memo_sync)], undef => [qw(nb_tm_walk)] },
		'nb_tmsample.o' => { defined => [qw(nb_tms_close)], undef => [qw(nb_tm_walk nb_tm_run nb_tm_memo_sync)] },
	});
	is(scalar(circles($e2)), 0, 'planted: model <- replay <- sampler has no circle');
	is_deeply([model_upward("static inline void f(struct nb_tm *t)\n{ /* nb_tms_flush */ if (t->smp.lazy) nb_tms_flush(t); }\n")],
		  ['->smp', 'nb_tms_flush'], 'planted: the model naming the sampler (code, not comments) is caught');
	my $r = plant('inc', 'timing/nb_a.h' => "#include \"nb_b.h\"\n", 'timing/nb_b.c' => "#include \"nb_a.h\"\n",
		      'timing/nb_b.h' => "\n");
	is(scalar(circles(include_edges("$r/timing"))), 1, 'planted: a.h -> b.h, b.c -> a.h is an include circle');
}

my $tdir = "$sim/timing";
my @up = map { my $f = $_; map { "$f: $_" } model_upward(code_of("$tdir/$f")) } qw(nb_timing.c nb_timing.h);
ok(!@up, 'the model (nb_timing.c, .h) names nothing of the replay or the sampled clock')
	or diag(join("\n", @up));
my @ic = circles(include_edges($tdir));
ok(!@ic, 'sim/timing\'s include graph has no circle') or diag(join("\n", @ic));

SKIP: {
	my $b = $ENV{NB_BUILD} ? "$ENV{NB_BUILD}/sim/tool" : '';
	my @o = (glob("$b/timing/*.o"), "$b/tool/nb_step.o", "$b/tool/nb_cycles.o");
	skip 'no tool build (NB_BUILD/sim/tool/timing/*.o)', 4 unless $b && @o > 2 && -e $o[-1];
	my %objs = map { (my $n = $_) =~ s{.*/(\w+/\w+\.o)$}{$1}; ($n => nm_syms($_)) } @o;
	my $e = call_edges(\%objs);
	cmp_ok(scalar(keys %objs), '>=', 5, scalar(keys %objs) . ' objects: ' . join(' ', sort keys %objs));
	my @cc = circles($e);
	ok(!@cc, 'the clock\'s call graph (nm: timing/*.o, tool/nb_step.o, tool/nb_cycles.o) has no circle') or diag(join("\n", @cc));
	ok(!$e->{'tool/nb_step.o'}{'tool/nb_cycles.o'} && $e->{'tool/nb_cycles.o'}{'tool/nb_step.o'},
	   'step mode (nb_step.o) is below the clock (nb_cycles.o): called by it, calling nothing of it')
		or diag(explain($e->{'tool/nb_step.o'}));
	my @m = grep { m{^timing/nb_tm(?:memo|sample)\.o$} } keys %{ $e->{'timing/nb_timing.o'} // {} };
	ok(!@m, 'nb_timing.o calls nothing of nb_tmmemo.o or nb_tmsample.o')
		or diag(join("\n", map { $e->{'timing/nb_timing.o'}{$_} } @m));
	diag('calls: ' . join(', ', map { my $f = $_; map { "$f -> $_" } sort keys %{ $e->{$f} } } sort keys %$e));
}

# the tool: its modules call down (state, derivation, clock, PMI arming,
# the access protocol, sampling, delivery, contexts, the entry points);
# upward needs are hooks nb_main.c registers
SKIP: {
	my $b = $ENV{NB_BUILD} ? "$ENV{NB_BUILD}/sim/tool" : '';
	my @o = glob("$b/tool/*.o");
	skip 'no tool build (NB_BUILD/sim/tool/tool/*.o)', 2 unless $b && @o > 5;
	my %objs = map { (my $n = $_) =~ s{.*/(\w+/\w+\.o)$}{$1}; ($n => nm_syms($_)) } @o;
	my $e = call_edges(\%objs);
	ok($e->{'tool/nb_pmuacc.o'}{'tool/nb_pmi_arm.o'} && $e->{'tool/nb_pmi.o'}{'tool/nb_pmuacc.o'},
	   'the graph has the expected edges (nb_pmuacc -> nb_pmi_arm, nb_pmi -> nb_pmuacc)')
		or diag(explain($e));
	my @cc = circles($e);
	ok(!@cc, 'sim/tool\'s call graph (nm: tool/*.o) has no circle') or diag(join("\n", @cc));
}

# the emulated kernel: its parts call the shared base (nb_kern_base.c) and
# one another downward; the entry points (nb_kern.c, nb_front.c) are on top
SKIP: {
	my $b = $ENV{NB_BUILD} ? "$ENV{NB_BUILD}/sim/tool" : '';
	my @o = glob("$b/kernel/*.o");
	skip 'no tool build (NB_BUILD/sim/tool/kernel/*.o)', 2 unless $b && @o > 5;
	my %objs = map { (my $n = $_) =~ s{.*/(\w+/\w+\.o)$}{$1}; ($n => nm_syms($_)) } @o;
	my $e = call_edges(\%objs);
	ok($e->{'kernel/nb_kern_perf.o'}{'kernel/nb_kern_base.o'},
	   'the graph has the expected edge (nb_kern_perf -> nb_kern_base)') or diag(explain($e));
	my @cc = circles($e);
	ok(!@cc, 'sim/kernel\'s call graph (nm: kernel/*.o) has no circle') or diag(join("\n", @cc));
}

done_testing();
