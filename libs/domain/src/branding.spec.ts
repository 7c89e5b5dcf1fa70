import { accentColorProblem, contrastRatio, httpsUrlProblem } from './branding';

describe('branding rules', () => {
  test('contrast ratio follows WCAG 2: black on white is 21:1, a colour on itself 1:1', () => {
    expect(contrastRatio('#000000', '#FFFFFF')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#777777')).toBe(1);
    // the WCAG reference pair: #767676 on white is just above 4.5:1, #777777 just below
    expect(contrastRatio('#767676', '#FFFFFF')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio('#777777', '#FFFFFF')).toBeLessThan(4.5);
  });

  test.each(['#1A56DB', '#000000', '#767676', '#b91c1c'])('%s carries white text', (c) =>
    expect(accentColorProblem(c)).toBeNull(),
  );

  test.each(['#FFFFFF', '#FFEE00', '#777777', '#60A5FA'])('%s is too light', (c) =>
    expect(accentColorProblem(c)).toMatch(/^accentColor #[0-9A-F]{6} is too light/),
  );

  test.each(['1A56DB', '#1A56D', '#1A56DBFF', 'blue', '#GGGGGG', 'rgb(0,0,0)'])('%s is not #RRGGBB', (c) =>
    expect(accentColorProblem(c)).toBe('accentColor must be a colour as #RRGGBB (for example #1A56DB).'),
  );

  test('URLs: https only, no credentials', () => {
    expect(httpsUrlProblem('logoUrl', 'https://cdn.example.com/logo.png')).toBeNull();
    expect(httpsUrlProblem('logoUrl', 'http://cdn.example.com/logo.png')).toBe(
      'logoUrl must be an absolute https URL.',
    );
    expect(httpsUrlProblem('logoUrl', 'data:image/png;base64,AAAA')).toBe('logoUrl must be an absolute https URL.');
    expect(httpsUrlProblem('logoUrl', '/logo.png')).toBe('logoUrl must be an absolute https URL.');
    expect(httpsUrlProblem('supportUrl', 'https://u:p@example.com/')).toBe(
      'supportUrl must not contain a user name or password.',
    );
  });
});
