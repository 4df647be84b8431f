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
# The checker is run first on planted trees (a pure file including the
# tool's header, a circle between two folders) and must report them.
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
done_testing();
