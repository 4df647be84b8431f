# t_events_lib.pl - shared helpers for tests/events/t_events_*.t (native_events).
# Finds the generated tables: $NBGEN, else <repo>/build/gen (make -C
# native_events), else generates them into a temporary directory.
use strict;
use warnings;
use File::Basename qw(dirname);
use File::Spec;
use File::Temp qw(tempdir);
use Cwd qw(abs_path);

our $ROOT = abs_path(File::Spec->catdir(dirname(abs_path(__FILE__)), '..', '..'));
our $NE = "$ROOT/native_events";
our $TMP = tempdir(CLEANUP => 1);

sub nb_gen_dir {
	return $ENV{NBGEN} if $ENV{NBGEN};
	return "$ROOT/build/gen" if -f "$ROOT/build/gen/nb_tables.c" && -f "$ROOT/build/gen/nb_tables_idx.h";
	my $d = "$TMP/gen";
	mkdir $d;
	system('perl', "$NE/gen_tables.pl", $NE, $d) == 0 or die "gen_tables.pl failed\n";
	return $d;
}

# Build tests/events/t_events_dump.c against the generated tables and parse its
# output into { events => {name => {...}}, order => [...], metrics => ..., presets => ... }.
sub nb_load {
	my $gen = nb_gen_dir();
	my $exe = "$TMP/nbdump";
	my @cmd = ('gcc', '-std=c11', '-Wall', '-Wextra', '-Werror', "-I$NE", "-I$gen",
		"$ROOT/tests/events/t_events_dump.c", "$gen/nb_tables.c", '-o', $exe);
	system(@cmd) == 0 or die "cannot build the table dumper: @cmd\n";
	open my $fh, '-|', $exe or die "$exe: $!\n";
	my %t = (events => {}, order => [], metrics => {}, morder => [], presets => {}, porder => [], escrs => {});
	while (<$fh>) {
		chomp;
		my @w = split ' ';
		my $k = shift @w;
		if ($k eq 'S') {
			my ($n, $msr, $sel, $ctr, $mod) = @w;
			$t{escrs}{$n} = { msr => hex $msr, select => $sel, counters => hex $ctr, models => hex $mod };
		} elsif ($k eq 'E') {
			my ($n, $sel, $esel, $escrs, $mod, $kidx, $fl, $fe, $role, $alias, $dfl, $valid) = @w;
			$t{events}{$n} = { name => $n, select => hex $sel, escrsel => $esel, escrs => [split /,/, $escrs],
				models => hex $mod, kernel => $kidx, flags => hex $fl, features => hex $fe, role => $role,
				alias => $alias eq '-' ? undef : $alias, dfl => hex $dfl, valid => hex $valid, masks => [], vmasks => [] };
			push @{$t{order}}, $n;
		} elsif ($k eq 'M') {
			my ($e, $n, $bit, $ts, $alias, $mod, $fe, $dfl) = @w;
			push @{$t{events}{$e}{masks}}, { name => $n, bit => $bit, ts => $ts,
				alias => $alias eq '-' ? undef : $alias, models => hex $mod, features => hex $fe, dfl => $dfl };
		} elsif ($k eq 'V') {
			my ($e, $n, $kind, $arg) = @w;
			push @{$t{events}{$e}{vmasks}}, { name => $n, kind => $kind, arg => $arg };
		} elsif ($k eq 'R') {
			my ($n, $type, $ce, $cm, $pe, $mv, $kidx, $tag, $mod, $fe, $h) = @w;
			$t{metrics}{$n} = { name => $n, type => $type, count => $ce, count_masks => hex $cm,
				pebs_enable => hex $pe, matrix_vert => hex $mv, kernel => $kidx, tag => $tag,
				models => hex $mod, features => hex $fe,
				helpers => [map { my @x = split m{/}; { event => $x[0], masks => hex $x[1], escr => $x[2], tag => $x[3] } }
					grep { $_ ne '-' } split /;/, $h] };
			push @{$t{morder}}, $n;
		} elsif ($k eq 'P') {
			$t{presets}{$w[0]} = { name => $w[0], alts => [] };
			push @{$t{porder}}, $w[0];
		} elsif ($k eq 'A') {
			my ($p, $d, $fe, $mod, $terms) = @w;
			push @{$t{presets}{$p}{alts}}, { derived => $d, features => hex $fe, models => hex $mod, terms => [split /;/, $terms] };
		}
	}
	close $fh or die "$exe failed\n";
	return \%t;
}

# Find a mask of event $e (hashref from nb_load) by name or alias.
sub nb_mask {
	my ($e, $n) = @_;
	for my $m (@{$e->{masks}}) {
		return $m if $m->{name} eq $n || ($m->{alias} // '') eq $n;
	}
	return undef;
}

# Exceptions files: "KEY SUBJECT reason..." lines; returns { "KEY SUBJECT" => reason }.
sub nb_exceptions {
	my ($file, $keyword) = @_;
	my %x;
	open my $fh, '<', $file or die "$file: $!\n";
	while (<$fh>) {
		next if /^\s*(#|$)/;
		next if defined $keyword && !/^\Q$keyword\E\s/;
		s/^\Q$keyword\E\s+// if defined $keyword;
		/^(\S+)\s+(\S+)\s+(\S.*)$/ or die "$file:$.: expected KEY SUBJECT REASON\n";
		die "$file:$.: duplicate exception $1 $2\n" if exists $x{"$1 $2"};
		$x{"$1 $2"} = $3;
	}
	return \%x;
}
1;
