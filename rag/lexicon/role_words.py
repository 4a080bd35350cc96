"""Words that name a role or an activity around a skill, not the skill: what a query's concepts
and a job description's names leave out ("React developer" asks for React); and the nouns a CV's
section headings are built from ("Test Automation Tools"), which evidence never quotes alone."""

# Words that name a role or an activity around a skill rather than the skill ("React developer",
# "Ansible automation", "SQL Server administration"); folded, en/es/de/fr.
ROLE_WORDS = frozenset(
    """
    developer developers development dev devs engineer engineers engineering programmer programmers
    programming architect architects administrator administrators administration admin admins
    automation specialist specialists expert experts consultant consultants professional
    professionals practitioner technician technicians analyst analysts coder coders designer designers
    manager managers coordinator coordinators officer officers assistant assistants representative
    representatives role position job jobs work skills skill tools tool stack
    desarrollador desarrolladora desarrolladores desarrollo programador programadora ingeniero
    ingeniera ingenieros administrador administradora administracion especialista experto experta
    consultor consultora disenador disenadora gerente coordinador coordinadora tecnico tecnica
    entwickler entwicklerin entwicklung programmierer programmiererin ingenieur ingenieurin
    administratorin administration spezialist spezialistin experte expertin berater beraterin
    designer designerin manager managerin koordinator koordinatorin referent referentin
    developpeur developpeuse developpement programmeur programmeuse ingenieure administrateur
    administratrice specialiste consultante concepteur conceptrice responsable chargee charge
    """.split()
)

# Nouns that make a line a section heading around a skill ("Backend Technologies", "Test Automation
# Tools", "Cloud Kenntnisse"), folded, en/es/de/fr.
HEADING_NOUNS = frozenset(
    """
    skills skill tools tool stack technologies technology tech frameworks framework platforms platform
    languages language libraries environment environments expertise competencies competences knowledge
    proficiencies areas summary profile experience projects certifications
    herramientas tecnologias habilidades conocimientos competencias lenguajes entornos
    kenntnisse fahigkeiten technologien werkzeuge sprachen kompetenzen
    outils technologies competences connaissances langages environnements
    """.split()
)
