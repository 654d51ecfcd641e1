package breath

import (
	"errors"
	"math"
	"testing"

	"github.com/sway-anim/sway/internal/check"
)

func TestDefaultSettings(t *testing.T) {
	s := DefaultSettings(1, 2, 3, 4, 5, 6)
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if s.InhaleDuration != 1.2 || s.ExhaleDuration != 2.4 || s.RestDuration != 0.2 ||
		s.DurationRate != 1 || s.EffectRate != 1 || s.InhaleEasing != OutSine || s.Mode != Absolute {
		t.Errorf("defaults: %+v", s)
	}
	want := [MaxSegments][2]float32{{2, -2}, {-3, 3}, {0.5, -0.5}, {0.5, -0.5}}
	for i, sg := range s.Segments {
		if sg.Bone != int32(i+1) || sg.InhaleDegrees != want[i][0] || sg.ExhaleDegrees != want[i][1] || sg.Sign != 1 {
			t.Errorf("segment %d: %+v", i, sg)
		}
	}
	if s.Shoulders != [2]int32{5, 6} {
		t.Errorf("shoulders %v", s.Shoulders)
	}
	// Missing bones are allowed.
	s = DefaultSettings(-1, 2, -1, 4, -1, -1)
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestValidateNamesField(t *testing.T) {
	nan := float32(math.NaN())
	for _, c := range []struct {
		field string
		edit  func(s *Settings)
	}{
		{"Segments[0].Bone", func(s *Settings) { s.Segments[0].Bone = -2 }},
		{"Segments[2].Bone", func(s *Settings) { s.Segments[2].Bone = s.Segments[1].Bone }},
		{"Segments[1].Axis", func(s *Settings) { s.Segments[1].Axis = 3 }},
		{"Segments[3].Sign", func(s *Settings) { s.Segments[3].Sign = 0 }},
		{"Segments[0].InhaleDegrees", func(s *Settings) { s.Segments[0].InhaleDegrees = nan }},
		{"Segments[0].ExhaleDegrees", func(s *Settings) { s.Segments[0].ExhaleDegrees = 181 }},
		{"Shoulders[1]", func(s *Settings) { s.Shoulders[1] = -3 }},
		{"Shoulders[0]", func(s *Settings) { s.Shoulders[0] = s.Segments[Chest].Bone }},
		{"InhaleDuration", func(s *Settings) { s.InhaleDuration = -1 }},
		{"ExhaleDuration", func(s *Settings) { s.ExhaleDuration = float32(math.Inf(1)) }},
		{"RestDuration", func(s *Settings) { s.RestDuration = nan }},
		{"RestDuration", func(s *Settings) { s.RestDuration = MaxDuration + 1 }},
		{"DurationRate", func(s *Settings) { s.DurationRate = -0.5 }},
		{"EffectRate", func(s *Settings) { s.EffectRate = nan }},
		{"EffectRate", func(s *Settings) { s.EffectRate = MaxRate * 2 }},
		{"InhaleEasing", func(s *Settings) { s.InhaleEasing = numEasings }},
		{"Mode", func(s *Settings) { s.Mode = 2 }},
	} {
		s := rigSettings()
		c.edit(&s)
		err := s.Validate()
		var fe *check.FieldError
		if !errors.As(err, &fe) || !errors.Is(err, check.ErrInvalid) {
			t.Errorf("%s: got %v, want a *check.FieldError", c.field, err)
			continue
		}
		if fe.Type != "Settings" || fe.Field != c.field {
			t.Errorf("got %s.%s, want Settings.%s (%v)", fe.Type, fe.Field, c.field, err)
		}
	}
}

func TestValidateAcceptsZeros(t *testing.T) {
	s := rigSettings()
	s.InhaleDuration, s.ExhaleDuration, s.RestDuration, s.DurationRate, s.EffectRate = 0, 0, 0, 0, 0
	s.InhaleEasing = OutExpo
	s.Mode = Additive
	if err := s.Validate(); err != nil {
		t.Error(err)
	}
}

func TestCheckBones(t *testing.T) {
	s := rigSettings()
	if err := s.CheckBones(rigBones); err != nil {
		t.Error(err)
	}
	var fe *check.FieldError
	if err := s.CheckBones(rigRShoulder); !errors.As(err, &fe) || fe.Field != "Shoulders[1]" {
		t.Errorf("got %v, want Shoulders[1] beyond the skeleton", err)
	}
	if err := s.CheckBones(rigHead); !errors.As(err, &fe) || fe.Field != "Segments[3].Bone" {
		t.Errorf("got %v, want Segments[3].Bone beyond the skeleton", err)
	}
}
